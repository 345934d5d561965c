#!/usr/bin/env bash
# make bench: bin/studio against nginx serving the same prerendered files
# with the same precompressed bodies, one after the other, under wrk.
# Prints requests per second, their ratio, p99 latency and the server's
# peak RSS. Loopback only; each run is bounded by DURATION.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
PATHS=${PATHS:-/product/1 /}

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || need+=(nginx-light)
[ -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || need+=(libnginx-mod-http-brotli-static)
if ((${#need[@]})); then
  echo "bench: installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# SITE names another built tree (scripts/photo-site.sh) to measure instead.
site=${SITE:-.}
[ -n "${SITE:-}" ] || make --no-print-directory build >/dev/null
work=$(mktemp -d)
studio_port=18080
nginx_port=18081
root="$(cd "$site" && pwd)/web/build/client"

cat >"$work/nginx.conf" <<NGINX
load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;
worker_processes auto;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path $work;
  proxy_temp_path $work;
  fastcgi_temp_path $work;
  uwsgi_temp_path $work;
  scgi_temp_path $work;
  server {
    listen 127.0.0.1:$nginx_port;
    root $root;
    gzip_static on;
    brotli_static on;
    etag on;
    location / { try_files \$uri \$uri/index.html =404; add_header Cache-Control no-cache; }
    location /assets/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
  }
}
NGINX

source scripts/start-studio.sh
studio_pid=
trap 'kill $studio_pid 2>/dev/null; nginx -c "$work/nginx.conf" -s stop 2>/dev/null; rm -rf "$work"' EXIT
start_studio "$site/bin/studio" $studio_port "$work/data"
nginx -c "$work/nginx.conf"
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$nginx_port/" >/dev/null && break; sleep 0.1; done

# One wrk run: prints "requests/s p99 errors".
run() {
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -H 'Accept-Encoding: br, gzip' "$1")
  local rps p99 errors
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  errors=$(awk '/Socket errors|Non-2xx/ {print}' <<<"$out" | tr '\n' ' ')
  echo "$rps $p99 ${errors:-none}"
}

printf '%-12s %-8s %12s %10s  %s\n' path server "requests/s" p99 errors
for path in $PATHS; do
  read -r s_rps s_p99 s_err <<<"$(run "http://127.0.0.1:$studio_port$path")"
  read -r n_rps n_p99 n_err <<<"$(run "http://127.0.0.1:$nginx_port$path")"
  printf '%-12s %-8s %12s %10s  %s\n' "$path" studio "$s_rps" "$s_p99" "$s_err"
  printf '%-12s %-8s %12s %10s  %s\n' "$path" nginx "$n_rps" "$n_p99" "$n_err"
  awk -v s="$s_rps" -v n="$n_rps" -v p="$path" 'BEGIN { printf "%-12s ratio studio/nginx: %.2f\n", p, s / n }'
done
echo "studio peak RSS: $(awk '/VmHWM/ {printf "%.1f MB", $2 / 1024}' /proc/$studio_pid/status)"
if [ -n "${THEN_EVERY_IMAGE:-}" ]; then
  # Every image file of the build, fetched once: the photographs are read
  # from the binary as they are sent, not kept on the heap.
  (cd "$root" && find images -type f ! -name '*.gz' ! -name '*.br') |
    while read -r name; do curl -sf -o /dev/null "http://127.0.0.1:$studio_port/$name"; done
  echo "after one GET of each of $(cd "$root" && find images -type f ! -name '*.gz' ! -name '*.br' | wc -l) image files: $(awk '/VmRSS|RssAnon|RssFile/ {printf "%s %.1f MB  ", $1, $2 / 1024}' /proc/$studio_pid/status)"
fi
echo "(wrk -t2 -c$CONNECTIONS -d$DURATION, Accept-Encoding: br, gzip; $(nproc) cores shared by wrk and the server)"
