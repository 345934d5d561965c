#!/usr/bin/env bash
# make load: bin/studio under a mix of page requests and enquiry posts
# (cmd/loadtest) for DURATION at CONNECTIONS connections, on loopback, with
# SQLite durable under a fresh DATA_DIR. Prints the load figures and the
# server's peak RSS; fails on any error or 5xx.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-30s}
CONNECTIONS=${CONNECTIONS:-256}
port=18095
work=$(mktemp -d)
make --no-print-directory build >/dev/null
go build -o "$work/loadtest" ./cmd/loadtest
source scripts/start-studio.sh
studio_pid=
trap 'kill $studio_pid 2>/dev/null; rm -rf "$work"' EXIT
start_studio ./bin/studio $port "$work/data" TRUSTED_PROXIES=127.0.0.1
ulimit -n 65536 2>/dev/null || true
status=0
"$work/loadtest" -url "http://127.0.0.1:$port" -duration "$DURATION" -connections "$CONNECTIONS" || status=$?
echo "studio peak RSS: $(awk '/VmHWM/ {printf "%.1f MB", $2 / 1024}' /proc/$studio_pid/status)"
exit $status
