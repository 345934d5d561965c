#!/usr/bin/env bash
# make interactive: first paint and time to interactive of the main pages
# on a slow phone (slow 4G, CPU 4×; web/scripts/interactive.mjs), against
# a freshly started bin/studio (or SITE's, a tree from scripts/photo-site.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
port=18091
work=$(mktemp -d)
source scripts/start-studio.sh
trap 'kill $studio_pid 2>/dev/null || true; rm -rf "$work"' EXIT
start_studio "${SITE:-.}/bin/studio" $port "$work/data"
cd web && node scripts/interactive.mjs "http://127.0.0.1:$port" ${PAGES:-}
