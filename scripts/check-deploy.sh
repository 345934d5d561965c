#!/usr/bin/env bash
# make check-deploy: the deployment files of deploy/, each checked by the
# tool that will read it; one line per check, non-zero at the first failure.
# (deploy/compose.yaml's shape is a Go test: go test ./deploy.)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# systemd units: verify prints problems but exits 0 for most, so any output
# fails. ExecStart must name a file that exists: the built bin/studio
# stands in for /usr/local/bin/studio. The TLS drop-in is checked merged
# into the unit, as systemd merges it.
mkdir -p "$work/units"
for unit in studio.service studio-backup.service studio-backup.timer; do
  sed "s#/usr/local/bin/studio#$PWD/bin/studio#g" "deploy/$unit" > "$work/units/$unit"
done
{ cat "$work/units/studio.service"; echo; cat deploy/studio-tls.conf; } > "$work/units/studio-tls.service"
for unit in studio.service studio-tls.service studio-backup.service studio-backup.timer; do
  out=$(cd "$work/units" && systemd-analyze verify --man=no "./$unit" 2>&1) || true
  if [ -n "$out" ]; then echo "systemd-analyze verify $unit:"; echo "$out"; exit 1; fi
  echo "ok   systemd-analyze verify $unit"
done

# nginx: the example inside a minimal nginx.conf, with a self-signed
# certificate in place of certbot's.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=www.example.com \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
sed -e "s#/etc/letsencrypt/live/www.example.com/fullchain.pem#$work/cert.pem#" \
    -e "s#/etc/letsencrypt/live/www.example.com/privkey.pem#$work/key.pem#" deploy/nginx.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
  access_log off;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  include $work/site.conf;
}
CONF
nginx -t -q -c "$work/nginx.conf" -p "$work" 2>&1 || { echo "nginx -t deploy/nginx.conf failed"; exit 1; }
echo "ok   nginx -t deploy/nginx.conf"

# Caddy, when installed (.ci/run installs Debian's).
if command -v caddy >/dev/null; then
  caddy validate --config deploy/Caddyfile --adapter caddyfile >"$work/caddy.log" 2>&1 || { cat "$work/caddy.log"; exit 1; }
  echo "ok   caddy validate deploy/Caddyfile"
else
  echo "skip caddy validate: caddy is not installed (apt-get install caddy)"
fi

# The Dockerfile cannot be built here (no container daemon, no registry):
# it is linted instead.
(cd web && npx --no-install dockerfilelint ../deploy/Dockerfile) >"$work/dockerfile.log" 2>&1 || { cat "$work/dockerfile.log"; exit 1; }
echo "ok   dockerfilelint deploy/Dockerfile"
