#!/usr/bin/env bash
# make lighthouse: Lighthouse (the npm package, mobile, default simulated
# throttling) in Debian's Chromium against a running bin/studio, on the four
# pages that matter most. Prints the four scores with LCP, TBT and CLS.
set -euo pipefail
cd "$(dirname "$0")/.."

LIGHTHOUSE=lighthouse@13.5.0
PAGES=${PAGES:-/ /products /product/1 /contact-us}
port=18090
work=$(mktemp -d)
source scripts/start-studio.sh
trap 'kill $studio_pid 2>/dev/null || true; rm -rf "$work"' EXIT
# SITE names another built tree (scripts/photo-site.sh) to measure instead.
start_studio "${SITE:-.}/bin/studio" $port "$work/data"

export CHROME_PATH=/usr/bin/chromium
flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run"
printf '%-14s %5s %5s %5s %5s  %8s %7s %6s\n' page perf a11y bp seo LCP TBT CLS
for path in $PAGES; do
  out="$work/report.json"
  # Lighthouse now and then fails to record a trace (NO_NAVSTART): try again.
  for attempt in 1 2 3; do
    rm -f "$out"
    npx --yes "$LIGHTHOUSE" "http://127.0.0.1:$port$path" --quiet --output=json --output-path="$out" \
      --only-categories=performance,accessibility,best-practices,seo --chrome-flags="$flags" >/dev/null 2>"$work/lh.err" &&
      node -e 'process.exit(require(process.argv[1]).runtimeError ? 1 : 0)' "$out" && break
    [ "$attempt" = 3 ] && { cat "$work/lh.err" >&2; exit 1; }
  done
  node -e '
    const r = require(process.argv[1]);
    const c = r.categories, a = r.audits, s = (k) => Math.round(c[k].score * 100);
    const fails = Object.values(a).filter((x) => x.score !== null && x.score < 1 && x.scoreDisplayMode !== "informative" && x.scoreDisplayMode !== "manual" && x.scoreDisplayMode !== "notApplicable");
    console.log([process.argv[2].padEnd(14), ...["performance", "accessibility", "best-practices", "seo"].map((k) => String(s(k)).padStart(5)),
      a["largest-contentful-paint"].displayValue.padStart(9), a["total-blocking-time"].displayValue.padStart(7), a["cumulative-layout-shift"].displayValue.padStart(6)].join(" "));
    if (process.env.VERBOSE) for (const f of fails) console.log("    below 1:", f.id, f.score, f.displayValue ?? "");
  ' "$out" "$path"
done
echo "(Lighthouse ${LIGHTHOUSE#lighthouse@}, mobile, simulated throttling, Debian Chromium $( (chromium --version 2>/dev/null || true) | awk "{print \$2}"))"
