#!/usr/bin/env bash
# make bench-preview: the workspace's preview as the studio uses it, timed
# on this machine, for the shipped catalogue and for one of PRODUCTS (300)
# pieces, PHOTOGRAPHED (200) of them with camera photographs: Save of a
# product's description → its page in the preview shows it (three times);
# Save of a new 4000×3000 photograph → the first picture of it the page
# shows; the first preview after the server is restarted (its caches kept);
# and the warm renderer's resident memory (scripts/bench-editor.py).
# Loopback only; figures, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
make --no-print-directory build >/dev/null 2>&1
BENCH_PORT=18098 . scripts/bench-studio.sh
start_server

measure() { # measure LABEL
  printf '%-28s %s\n' "$1" "$(python3 scripts/bench-editor.py "$port" "$password" preview)"
  printf '%-28s renderer: %s MiB resident\n' "" "$(renderer_mib)"
  stop_server
  start_server
  printf '%-28s %s\n' "" "$(python3 scripts/bench-editor.py "$port" "$password" first-preview)"
  sleep 2 # its workers' bundles imported
  printf '%-28s renderer: %s MiB resident after the restart and one preview\n' "" "$(renderer_mib)"
}

# The shipped content, once the new server's renderer runs.
wait_renderer
measure "$(python3 -c "import json;print(len(json.load(open('$work/content/catalogue.json'))['products']))") products (shipped)"

[ "$PRODUCTS" -gt 0 ] || exit 0
git -C "$work/content" pull -q origin main
t_cold=$(use_big_catalogue)
printf '%-28s first build: %.1f s\n' "$PRODUCTS products" "$t_cold"
measure "$PRODUCTS products ($PHOTOGRAPHED with photographs)"
