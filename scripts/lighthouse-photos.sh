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
source scripts/start-studio.sh
trap 'kill $studio_pid 2>/dev/null || true; rm -rf "$work"' EXIT
start_studio "$site/bin/studio" $port "$work/data"
for path in "/product/$id" /products; do
  (cd web && node scripts/page-weight.mjs "http://127.0.0.1:$port$path")
done
kill $studio_pid

SITE=$site PAGES="/product/$id /products" scripts/lighthouse.sh
