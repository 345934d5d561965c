#!/usr/bin/env bash
# make bench-publish: publishing as the studio does it, timed on this
# machine, for the shipped catalogue and for one of PRODUCTS (300) pieces
# with camera photographs (web/scripts/sample-photos.mjs). For each: a
# product's description changed and pushed → live (a text on one page), the
# tagline changed and pushed → live (a text on every page: the whole site
# re-rendered), one new 4000×3000 photograph pushed → live,
# a rollback, the failed requests while releases are switched under wrk,
# the peak memory of a build, and Publish → live from the workspace's
# Content section for a text and two photographs (scripts/bench-editor.py);
# then studio releases --verify: each release checked, and the disk it
# takes of its own.
# Loopback only; figures, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
make --no-print-directory build >/dev/null 2>&1
. scripts/bench-studio.sh
peak() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r.get('buildPeakMiB',0), r.get('buildSeconds',0))" "$work/data/releases/$(release)/release.json"; }
start_server

measure() { # measure LABEL
  local label=$1 old t_page t_text t_photo t_back peak_mib
  old=$(release)
  python3 - "$work/content/catalogue.json" <<'PY'
import json, sys, time
p = sys.argv[1]; d = json.load(open(p)); d["products"][-1]["description"] += " Oiled again at %d." % time.time()
json.dump(d, open(p, "w"), indent=2, ensure_ascii=False)
PY
  push "A product's description"
  t_page=$(wait_switch "$old")
  old=$(release)
  python3 - "$work/content/site.json" <<'PY'
import json, sys, time
p = sys.argv[1]; d = json.load(open(p)); d["tagline"] = "Made by hand, published at %d" % time.time()
json.dump(d, open(p, "w"), indent=2, ensure_ascii=False)
PY
  push "A new tagline"
  t_text=$(wait_switch "$old")
  read -r peak_text _ < <(peak)
  old=$(release)
  (cd web && node -e 'import("./scripts/sample-photos.mjs").then((m) => m.makePhoto(process.argv[1], { width: 4000, height: 3000, seed: Date.now() % 1000 }))' "$work/content/images/products/bench-new.jpg")
  python3 - "$work/content/catalogue.json" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
d["products"][0]["images"].append({"src": "products/bench-new.jpg", "alt": "The piece in the workshop"})
json.dump(d, open(p, "w"), indent=2, ensure_ascii=False)
PY
  push "A new photograph"
  t_photo=$(wait_switch "$old")
  read -r peak_photo _ < <(peak)
  local newest=$old; old=$(release)
  # From the command to the first answer of the release it made live.
  local start; start=$(now)
  studio rollback "$newest" >/dev/null
  wait_switch "$old" >/dev/null
  t_back=$(echo "$(now) - $start" | bc)
  # Releases switched back and forth every 0.5 s under load.
  (for _ in $(seq 1 16); do studio rollback "$old" >/dev/null; sleep 0.5; studio rollback "$newest" >/dev/null; sleep 0.5; done) &
  local switcher=$!
  wrk -t2 -c64 -d16s -H 'Accept-Encoding: br, gzip' "$base/product/1" >"$work/wrk.txt"
  wait $switcher
  local requests errors
  requests=$(awk '/requests in/{print $1}' "$work/wrk.txt")
  errors=$(awk '/Non-2xx/{n+=$NF} /Socket errors/{gsub(",","");n+=$4+$6+$8+$10} END{print n+0}' "$work/wrk.txt")
  printf '%-28s text → live: one page %5.1f s, every page %5.1f s   photograph → live %5.1f s   rollback %4.2f s   switch under wrk: %s failed of %s   build peak %s MiB (text) %s MiB (photo)   renderer %s MiB\n' \
    "$label" "$t_page" "$t_text" "$t_photo" "$t_back" "$errors" "$requests" "$peak_text" "$peak_photo" "$(renderer_mib)"
  printf '%-28s %s\n' "" "$(python3 scripts/bench-editor.py "$port" "$password" publish "$work/data")"
  git -C "$work/content" pull -q origin main
}

# The first build of a new server fills the build caches (images, compressed files).
old=$(release)
python3 - "$work/content/site.json" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["tagline"] += "."
json.dump(d, open(p, "w"), indent=2, ensure_ascii=False)
PY
push "The first change"
printf '%-28s first build of a new server: %.1f s\n' "shipped catalogue" "$(wait_switch "$old")"
measure "$(python3 -c "import json;print(len(json.load(open('$work/content/catalogue.json'))['products']))") products (shipped)"
# What each release takes on disk, and how long checking every byte takes.
studio releases --verify || true

# The larger catalogue (PRODUCTS=0: none), built once from cold caches,
# then measured.
[ "$PRODUCTS" -gt 0 ] || exit 0
t_cold=$(use_big_catalogue)
printf '%-28s first build: %.1f s\n' "$PRODUCTS products" "$t_cold"
measure "$PRODUCTS products ($PHOTOGRAPHED with photographs)"
studio releases --verify || true
