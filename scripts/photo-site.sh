#!/usr/bin/env bash
# scripts/photo-site.sh DIR [PRODUCTS] [PHOTOS]: builds, in DIR, a copy of
# this site whose catalogue has camera-sized photographs made on the spot
# (web/scripts/sample-photos.mjs), as a studio would add them: pictures in
# content/images/, entries in content/catalogue.json, then `make build`.
# The browser tests of the pictures run against DIR/bin/studio, and
# `make bench-images` measures one with hundreds of products.
# The front end's packages are shared with this tree, and so is the image
# cache unless PHOTO_SITE_CACHE names another (make bench-images times a
# build from an empty one).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/photo-site.sh DIR [PRODUCTS] [PHOTOS]}
products=${2:-12}
photos=${3:-5}

cache=${PHOTO_SITE_CACHE:-$PWD/web/.image-cache}
mkdir -p "$dir" "$cache"
# A fresh copy each time (a file renamed or deleted here must not stay
# there), keeping only the photographs made before.
find "$dir" -mindepth 1 -maxdepth 1 ! -name .photos -exec rm -rf {} +
# The tree as committed, without what builds write.
tar --exclude=./.git --exclude=./bin --exclude=./data --exclude='./.photo-site*' \
  --exclude=./web/node_modules --exclude=./web/build --exclude=./web/.generated \
  --exclude=./web/.image-cache --exclude=./web/.compress-cache --exclude=./web/.page-cache --exclude=./web/.react-router --exclude=./web/test-results \
  -cf - . | tar -xf - -C "$dir"
ln -sfn "$PWD/web/node_modules" "$dir/web/node_modules"
ln -sfn "$cache" "$dir/web/.image-cache"

# The content is the current content/ plus the sample products, made anew
# each time; the photographs themselves are made once and kept in DIR/.photos.
rm -rf "$dir/content"
node web/scripts/sample-photos.mjs "$dir/content" --products "$products" --photos "$photos" --cache "$(cd "$dir" && pwd)/.photos"
[ -n "${PHOTO_SITE_NO_BUILD:-}" ] || make --no-print-directory -C "$dir" build
