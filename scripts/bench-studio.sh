# What make bench-publish and make bench-preview share (sourced, not run):
# a studio server of its own on a loopback port with the build caches kept
# between runs (.bench-publish-cache/), a clone of its content to push to,
# and the larger catalogue of PRODUCTS pieces with PHOTOGRAPHED camera
# photographs (web/scripts/sample-photos.mjs).
PRODUCTS=${PRODUCTS:-300}
PHOTOGRAPHED=${PHOTOGRAPHED:-200}
root=$PWD
work=$(mktemp -d)
port=${BENCH_PORT:-18097}
base=http://127.0.0.1:$port
password="bench-$RANDOM-$RANDOM-password"
server=
trap 'stop_server; rm -rf "$work"' EXIT

release() { curl -s -o /dev/null -D - "$base/" | tr -d '\r' | awk -F': ' 'tolower($1)=="studio-release"{print $2}'; }
now() { date +%s.%N; }
studio() { DATA_DIR="$work/data" "$root/bin/studio" "$@"; }
push() { git -C "$work/content" add -A && git -C "$work/content" -c user.name=Bench -c user.email=bench@localhost commit -qm "$1" && git -C "$work/content" push -q origin HEAD:main; }

# wait_switch OLD: seconds until the home page is answered by another
# release, asked every 50 ms by one process on one kept-alive connection: a
# loop of curl processes took two thirds of a core, a third of the
# machine the build needs.
wait_switch() {
  python3 - "$port" "$1" <<'PY' || { echo "no new release within 30 min" >&2; studio releases >&2; exit 1; }
import http.client, sys, time
port, old = int(sys.argv[1]), sys.argv[2]
start = time.time()
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
while time.time() - start < 1800:
    try:
        conn.request("HEAD", "/")
        answer = conn.getresponse()
        answer.read()
        if answer.getheader("Studio-Release") != old:
            print("%.2f" % (time.time() - start))
            sys.exit(0)
    except (OSError, http.client.HTTPException):
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    time.sleep(0.05)
sys.exit(1)
PY
}

start_server() {
  mkdir -p "$work/data" "$root/.bench-publish-cache"
  [ -e "$work/data/build-cache" ] || ln -s "$root/.bench-publish-cache" "$work/data/build-cache"
  PORT=$port DATA_DIR="$work/data" BUILDER_DIR="$root" BUILD_TIMEOUT=60m STUDIO_PASSWORD=$password "$root/bin/studio" >>"$work/server.log" 2>&1 &
  server=$!
  until curl -sf "$base/healthz" >/dev/null; do sleep 0.1; done
  [ -d "$work/content" ] || git clone -q "$work/data/content.git" "$work/content"
}

stop_server() {
  [ -n "$server" ] || return 0
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null || true
  server=
}

# use_big_catalogue: the content becomes the larger catalogue, pushed, and
# its first build waited for; prints the seconds it took.
use_big_catalogue() {
  rm -rf "$work/big"
  node web/scripts/sample-photos.mjs "$work/big" --products "$PRODUCTS" --photos "$PHOTOGRAPHED" --cache "$root/.photo-site-bench-photos" >/dev/null
  find "$work/content" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -a "$work/big/." "$work/content/"
  local old; old=$(release)
  push "$PRODUCTS products"
  wait_switch "$old"
}

# renderer_mib: the warm renderer's resident memory, from /metrics.
renderer_mib() {
  curl -s "$base/metrics" | awk '/^studio_renderer_resident_bytes/{printf "%.0f", $2/1048576; found=1} END{if(!found) printf "?"}'
}

# wait_renderer: until the warm renderer runs (the server bundles the code
# and starts it as it starts; the first time, with empty caches, minutes).
wait_renderer() {
  local mib
  for _ in $(seq 1 6000); do
    mib=$(renderer_mib)
    [ "$mib" != "?" ] && [ "$mib" -gt 0 ] && return 0
    sleep 0.1
  done
  echo "the warm renderer did not start within 10 min" >&2
  exit 1
}
