#!/usr/bin/env bash
# make bench-images: the figures of a catalogue that has grown, as a studio's
# would: PRODUCTS pieces (default 300), PHOTOS of them photographed
# (default 200, camera-sized, made once by web/scripts/sample-photos.mjs and
# kept in .photo-site-bench/). Prints the build time from an empty image
# cache and after one photograph changes, the first-load JavaScript of / and
# /product/1 beside this site's (10 products), and bin/studio's memory under
# `make bench` with those photographs. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
PRODUCTS=${PRODUCTS:-300}
PHOTOS=${PHOTOS:-200}
dir=.photo-site-bench
cache="$PWD/$dir.cache"

make --no-print-directory build >/dev/null
# The sample photographs, made once (they take minutes); no build yet.
PHOTO_SITE_CACHE=$cache PHOTO_SITE_NO_BUILD=1 scripts/photo-site.sh "$dir" "$PRODUCTS" "$PHOTOS" >/dev/null

seconds() { local start=$SECONDS; "$@" >/dev/null 2>&1; echo $((SECONDS - start)); }
rm -rf "$cache"/* "$dir/web/build" "$dir/web/.generated" "$dir/bin"
first=$(seconds make --no-print-directory -C "$dir" build)
# A studio replaces one photograph with a new one of the same name.
photos=("$dir"/content/images/photos/*.jpg)
node -e 'import("./web/scripts/sample-photos.mjs").then((m) => m.makePhoto(process.argv[1], { seed: Date.now() % 100000 }))' "${photos[0]}"
again=$(seconds make --no-print-directory -C "$dir" build)
originals=$(find "$dir/content/images" -type f | wc -l)
files=$(find "$dir/web/build/client/images" -type f ! -name '*.gz' ! -name '*.br' | wc -l)
echo "build, $PRODUCTS products ($PHOTOS photographs, $originals originals → $files image files): ${first} s from an empty image cache; ${again} s after one photograph changed"
echo "bin/studio: $(du -m "$dir/bin/studio" | cut -f1) MB (this site's: $(du -m bin/studio | cut -f1) MB)"

js() { (cd web && node scripts/budgets.mjs "$1") | awk -v p="$2" '$1 == p { print $2, $3 }'; }
for path in / /product/1; do
  echo "first-load JS of $path (gzip): $(js "$PWD/$dir/web/build/client" "$path") with $PRODUCTS products; $(js "$PWD/web/build/client" "$path") with this site's"
done

SITE=$dir THEN_EVERY_IMAGE=1 scripts/bench.sh
