# Sourced by the benchmark scripts. start_studio BINARY PORT DATA_DIR
# [VAR=value ...] starts a bin/studio on loopback with a fresh data
# directory, waits until /healthz answers and the server's start-up work is
# done, and sets studio_pid.
start_studio() {
  local bin=$1 port=$2 data=$3
  shift 3
  env PORT="$port" DATA_DIR="$data" "$@" "$bin" >"$data.log" 2>"$data.err" &
  studio_pid=$!
  for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && { wait_for_bundles "$data.log" && wait_for_quiet; return; }
    sleep 0.1
  done
  echo "bin/studio did not start: $(cat "$data.err")" >&2
  return 1
}

# A server with a builder bundles its code as it starts, then starts its
# renderer, on the cores the browser or wrk measure with
# (docs/publishing.md): measured meanwhile, the home page, measured first,
# lost 5-15 points of Lighthouse. Its log says when the bundling ended, or
# that there is no builder; wait_for_quiet then waits out the renderer.
wait_for_bundles() {
  for _ in $(seq 600); do
    grep -q -e "bundles are ready" -e "publish: no builder" "$1" && return 0
    grep -q "bundling the code at start" "$1" && break
    sleep 0.5
  done
  echo "bin/studio did not finish bundling its code: $(cat "$1")" >&2
  return 1
}

# Waits (at most a minute) until the machine's cores are 90% idle over a
# second, and says so when they never are: figures taken on a busy machine.
wait_for_quiet() {
  local busy
  for _ in $(seq 60); do
    busy=$( { head -1 /proc/stat; sleep 1; head -1 /proc/stat; } |
      awk '{idle = $5 + $6; total = 0; for (i = 2; i <= NF; i++) total += $i}
           NR == 1 {i0 = idle; t0 = total} NR == 2 {printf "%d", 100 * (1 - (idle - i0) / (total - t0))}')
    [ "$busy" -lt 10 ] && return 0
  done
  echo "start_studio: the machine stayed busy (${busy}% of its cores); the figures are a busy machine's" >&2
}
