#!/usr/bin/env bash
# make bench-serve: bin/studio against a bare net/http handler
# (scripts/bareserve) sending the same brotli bytes with the same headers,
# one after the other under wrk, RUNS times. Prints requests per second,
# p99 latency and their ratio for each run, then the medians. bin/studio
# runs as in production: the request log on (to /dev/null), metrics on.
# Loopback only; each wrk run is bounded by DURATION. BARE_HEADERS=minimal
# has the bare handler send only Content-Type, Content-Encoding and
# Content-Length instead of bin/studio's headers; BARE_TIMEOUTS=on serves
# it with bin/studio's read, write and idle timeouts.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/start-studio.sh

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
RUNS=${RUNS:-3}
PATHS=${PATHS:-/product/1 /}
studio_port=${STUDIO_PORT:-18380}
bare_port=${BARE_PORT:-18381}

if ! command -v wrk >/dev/null; then
  echo "bench-serve: installing wrk"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
for port in $studio_port $bare_port; do
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
    echo "bench-serve: something already answers on port $port (set STUDIO_PORT, BARE_PORT)" >&2
    exit 1
  fi
done

# STUDIO_BIN names another bin/studio built from this tree to measure
# (an older commit's, say); by default it is built first.
studio_bin=${STUDIO_BIN:-bin/studio}
[ -n "${STUDIO_BIN:-}" ] || make --no-print-directory build >/dev/null
work=$(mktemp -d)
studio_pid= bare_pid=
trap 'kill $studio_pid $bare_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/bareserve" ./scripts/bareserve
start_studio "$studio_bin" "$studio_port" "$work/data"
# The bare handler copies bin/studio's headers for each page and checks
# that its bytes are the same as bin/studio's.
bare_args=(-like "http://127.0.0.1:$studio_port")
[ "${BARE_HEADERS:-}" != minimal ] || bare_args=()
[ "${BARE_TIMEOUTS:-}" != on ] || bare_args+=(-timeouts)
# shellcheck disable=SC2086
"$work/bareserve" -addr "127.0.0.1:$bare_port" -root web/build/client "${bare_args[@]}" $PATHS 2>"$work/bare.err" &
bare_pid=$!
first=${PATHS%% *}
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$bare_port$first" && break; sleep 0.1; done
curl -sf -o /dev/null "http://127.0.0.1:$bare_port$first" || { echo "bareserve did not start: $(cat "$work/bare.err")" >&2; exit 1; }

# One wrk run against the server of pid: prints "requests/s p99 errors
# cpu", cpu being the server's CPU time a request in microseconds (from
# /proc: user and system time over the run), a figure a busy machine
# disturbs less than the rate.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() {
  local out rps p99 errors requests before after
  before=$(ticks "$2")
  out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -H 'Accept-Encoding: br, gzip' "$1")
  after=$(ticks "$2")
  rps=$(awk '/^Requests\/sec/ {printf "%d", $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  errors=$(awk '/Socket errors|Non-2xx/ {print}' <<<"$out" | tr '\n' ' ' | tr -s ' ' '_')
  cpu=$(awk -v t=$((after - before)) -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
  echo "$rps $p99 ${errors:-none} $cpu"
}
commas() { sed -E ':a;s/([0-9])([0-9]{3})($|[^0-9])/\1,\2\3/;ta' <<<"$1"; }
median() { tr ' ' '\n' | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for path in $PATHS; do
  studio_all=() bare_all=() ratio_all=() studio_cpu=() bare_cpu=()
  for i in $(seq "$RUNS"); do
    read -r s_rps s_p99 s_err s_cpu <<<"$(run "http://127.0.0.1:$studio_port$path" "$studio_pid")"
    read -r b_rps b_p99 b_err b_cpu <<<"$(run "http://127.0.0.1:$bare_port$path" "$bare_pid")"
    ratio=$(awk -v s="$s_rps" -v b="$b_rps" 'BEGIN { printf "%.2f", s / b }')
    studio_all+=("$s_rps") bare_all+=("$b_rps") ratio_all+=("$ratio") studio_cpu+=("$s_cpu") bare_cpu+=("$b_cpu")
    extra=
    [ "$s_err$b_err" = nonenone ] || extra="  errors: studio $s_err, bare $b_err"
    printf '%-11s run %d    bin/studio %7s req/s (p99 %8s, CPU %5s µs a request)  bare %7s req/s (p99 %8s, CPU %5s µs)  ratio %s%s\n' \
      "$path" "$i" "$(commas "$s_rps")" "$s_p99" "$s_cpu" "$(commas "$b_rps")" "$b_p99" "$b_cpu" "$ratio" "$extra"
  done
  printf '%-11s median   bin/studio %7s req/s (             CPU %5s µs a request)  bare %7s req/s (              CPU %5s µs)  ratio %s\n' "$path" \
    "$(commas "$(median <<<"${studio_all[*]}")")" "$(median <<<"${studio_cpu[*]}")" \
    "$(commas "$(median <<<"${bare_all[*]}")")" "$(median <<<"${bare_cpu[*]}")" "$(median <<<"${ratio_all[*]}")"
done
echo "(wrk -t2 -c$CONNECTIONS -d$DURATION -H 'Accept-Encoding: br, gzip', $RUNS runs each, the two servers in turn; bare with ${BARE_HEADERS:-the same} headers${BARE_TIMEOUTS:+, timeouts $BARE_TIMEOUTS}; $(nproc) cores shared by wrk and both servers; ratio: of the same run)"
