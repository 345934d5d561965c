# Sourced by the benchmark scripts. start_studio BINARY PORT DATA_DIR
# [VAR=value ...] starts a bin/studio on loopback with a fresh data
# directory, waits until /healthz answers, and sets studio_pid.
start_studio() {
  local bin=$1 port=$2 data=$3
  shift 3
  env PORT="$port" DATA_DIR="$data" "$@" "$bin" >/dev/null 2>"$data.err" &
  studio_pid=$!
  for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return 0
    sleep 0.1
  done
  echo "bin/studio did not start: $(cat "$data.err")" >&2
  return 1
}
