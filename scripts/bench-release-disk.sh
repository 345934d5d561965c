#!/usr/bin/env bash
# make bench-release-disk: the disk a release takes, for a catalogue of
# PRODUCTS (300) pieces, PHOTOGRAPHED (20) of them with camera photographs
# (web/scripts/sample-photos.mjs), published as the studio does: the whole
# catalogue pushed, then a text on every page (the tagline), then a text on
# one product. It prints what each release adds to DATA_DIR/releases (du,
# which counts a file linked from several releases once, in the order
# given) and `studio releases --verify` (each release checked; the bytes no
# other release holds). Loopback only; figures, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
PRODUCTS=${PRODUCTS:-300}
PHOTOGRAPHED=${PHOTOGRAPHED:-20}
make --no-print-directory build >/dev/null 2>&1
root=$PWD
work=$(mktemp -d)
port=18098
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
studio() { DATA_DIR="$work/data" "$root/bin/studio" "$@"; }
PORT=$port DATA_DIR="$work/data" BUILDER_DIR="$root" BUILD_TIMEOUT=60m "$root/bin/studio" >"$work/server.log" 2>&1 &
server=$!
until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.1; done
git clone -q "$work/data/content.git" "$work/content"
# push MESSAGE, then wait until the release of it is live.
push() {
  git -C "$work/content" add -A
  git -C "$work/content" -c user.name=Bench -c user.email=bench@localhost commit -qm "$1"
  git -C "$work/content" push -q origin HEAD:main
  until studio releases | grep -q "live .*$1"; do
    if studio releases | grep -q "failed .*$1"; then studio releases >&2; exit 1; fi
    sleep 1
  done
}
edit() { python3 -c "import json,sys; p='$work/content/'+sys.argv[1]; d=json.load(open(p)); exec(sys.argv[2]); json.dump(d, open(p,'w'), indent=2, ensure_ascii=False)" "$@"; }

node web/scripts/sample-photos.mjs "$work/big" --products "$PRODUCTS" --photos "$PHOTOGRAPHED" --cache "$root/.photo-site-bench-photos" >/dev/null
find "$work/content" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
cp -a "$work/big/." "$work/content/"
rm -f "$work/content/embed.go"
push "$PRODUCTS products"
edit site.json "d['tagline'] = 'Made by hand, every page anew'"
push "A text on every page"
edit catalogue.json "d['products'][-1]['description'] += ' Oiled again.'"
push "A text on one product"
echo "$PRODUCTS products, $PHOTOGRAPHED photographed: what each release adds to releases/ (oldest first)"
# shellcheck disable=SC2012 # release ids are plain names, oldest first by name
du -sh $(ls -d "$work"/data/releases/2*/ | sort) | sed "s|$work/data/releases/||"
studio releases --verify
