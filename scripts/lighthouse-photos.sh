#!/usr/bin/env bash
# make lighthouse-photos: Lighthouse (as make lighthouse) and the page weight
# on a 390-pixel phone of the product page with the most photographs in the
# photographed copy of the site (scripts/photo-site.sh), and of /products.
set -euo pipefail
cd "$(dirname "$0")/.."
site=${SITE:-.photo-site}
id=$(node -e 'const c = require(process.argv[1]); console.log([...c.products].sort((a, b) => b.images.length - a.images.length)[0].id)' "$PWD/$site/content/catalogue.json")

port=18091
work=$(mktemp -d)
PORT=$port DATA_DIR="$work/data" "$site/bin/studio" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
for path in "/product/$id" /products; do
  (cd web && node scripts/page-weight.mjs "http://127.0.0.1:$port$path")
done
kill $pid

SITE=$site PAGES="/product/$id /products" scripts/lighthouse.sh
