#!/usr/bin/env bash
# make long-tasks: the long tasks of a slow phone's main thread while the
# main pages load, and their blocking time (web/scripts/long-tasks.mjs),
# against a freshly started bin/studio (or SITE's).
set -euo pipefail
cd "$(dirname "$0")/.."
port=18092
work=$(mktemp -d)
source scripts/start-studio.sh
trap 'kill $studio_pid 2>/dev/null || true; rm -rf "$work"' EXIT
start_studio "${SITE:-.}/bin/studio" $port "$work/data"
cd web && node scripts/long-tasks.mjs "http://127.0.0.1:$port" ${PAGES:-}
