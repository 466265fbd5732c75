#!/usr/bin/env bash
# The GPU check (issue 30): run on the GPU machine from the bundle scripts/gpu/pack.sh made (node.xz,
# app.tar.xz, debs/ next to this script), or from a checkout with Node on PATH. Writes section 6 of
# the bench report, as Markdown, to $OUT/section6.md (and the raw output next to it):
#   - CPU against device vectors (min cosine, max |diff|), computed in Node;
#   - encode throughput on the device at several batch sizes, fp32;
#   - embed on a generated graph, device against CPU;
#   - the sentence-transformers peer, when python3 can import torch and sentence_transformers.
# Usage: check.sh [--device webgpu|cuda|cpu] [--shared DIR] [--sentences N] [--quick]
#   --device cpu exercises every step on the CPU (no GPU needed: the figures then say cpu);
#   --quick shrinks the sizes (2,000 sentences, a 20k-edge graph) for a syntax and plumbing run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEVICE=webgpu
SHARED=""
SENTENCES=50000
NODES=100000 EDGES=300000 PRODUCTS=10000
BATCHES="64 256 1024"
while [ $# -gt 0 ]; do
  case "$1" in
    --device) DEVICE=$2; shift 2 ;;
    --shared) SHARED=$2; shift 2 ;;
    --sentences) SENTENCES=$2; shift 2 ;;
    --quick) SENTENCES=2000 NODES=8000 EDGES=20000 PRODUCTS=500 BATCHES="64 256"; shift ;;
    *) echo "check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
OUT=${OUT:-/tmp/gpu-check-out}
T=$(mktemp -d)
mkdir -p "$OUT"
exec > >(tee "$OUT/check-log.txt") 2>&1
started=$(date +%s)
say() { echo "[+$(($(date +%s) - started))s] $*"; }

# Node and the app: the bundle's when there is one, else this checkout's.
if [ -f "$HERE/node.xz" ] && [ -f "$HERE/app.tar.xz" ]; then
  xz -dc "$HERE/node.xz" >"$T/node" && chmod +x "$T/node"
  tar -xJf "$HERE/app.tar.xz" -C "$T"
  NODE=$T/node APP=$T/app
else
  NODE=$(command -v node) APP=$(cd "$HERE/../.." && pwd)
fi
[ -n "$SHARED" ] || for s in "$HERE/../shared" "$HERE/../../shared" "$APP/../shared"; do [ -d "$s" ] && SHARED=$(cd "$s" && pwd) && break; done
TOKENIZER=$SHARED/models/all-MiniLM-L6-v2-tokenizer
TEXTS=$SHARED/data/aser-style/eventualities.txt
[ -f "$TOKENIZER/tokenizer.json" ] && [ -f "$TEXTS" ] || { echo "check.sh: no shared data (pass --shared DIR)" >&2; exit 2; }
# Vulkan for WebGPU: Debian's loader from the bundle; the NVIDIA driver brings the ICD.
if [ "$DEVICE" = webgpu ] && [ -d "$HERE/debs" ]; then
  for f in "$HERE"/debs/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES=$icd && break
done
C="$NODE $APP/bin/intentsim.js"
GPU=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
say "device $DEVICE; GPU: ${GPU:-none}; $(nproc) cores; Node $($NODE --version)"

# Sentences as the bench makes them: "<eventuality>. Then, <eventuality>." with a seeded generator.
"$NODE" -e '
const fs = require("fs"); const [texts, n, out] = process.argv.slice(1);
const ev = fs.readFileSync(texts, "utf8").split("\n").map((l) => l.trim()).filter(Boolean);
let x = 7; const r = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = () => ev[Math.floor(r() * ev.length)];
fs.writeFileSync(out, Array.from({ length: +n }, () => `${pick()}. Then, ${pick()}.`).join("\n") + "\n");
' "$TEXTS" "$SENTENCES" "$T/s.txt"
head -n $((SENTENCES < 10000 ? SENTENCES : 10000)) "$T/s.txt" >"$T/s10k.txt"

say model
$C model make-bench --out "$T/m" --seed 1 --tokenizer-from "$TOKENIZER" | tail -1
E="--model-dir $T/m --offline"
compare() { "$NODE" "$HERE/compare-vectors.mjs" "$APP" "$1" "$2"; }
rate() { "$NODE" -e 'const m = require(process.argv[1]); const e = m.encoder ?? {}; const s = e.stats ?? {};
  const secs = (s.encodeMs ?? 0) / 1000; console.log([s.sentences, secs.toFixed(2), (s.sentences / secs).toFixed(0), e.provider,
  (s.tokenizeMs / 1000).toFixed(2), (s.inferenceMs / 1000).toFixed(2), (s.poolingMs / 1000).toFixed(2), e.sessionBusyShare].join(" | "))' "$1"; }

say "vectors: cpu vs $DEVICE"
$C encode --in "$T/s10k.txt" --out "$T/cpu.npy" $E --device cpu 2>&1 | tail -1
$C encode --in "$T/s10k.txt" --out "$T/dev.npy" $E --device "$DEVICE" 2>&1 | tail -1
VECTORS=$(compare "$T/cpu.npy" "$T/dev.npy")
echo "$VECTORS"

ROWS=""
for bs in $BATCHES; do
  say "encode $DEVICE fp32 batch $bs"
  $C encode --in "$T/s.txt" --out "$T/b$bs.npy" $E --device "$DEVICE" --batch-size "$bs" 2>&1 | tail -1
  cp "$T/b$bs.npy.manifest.json" "$OUT/encode-$DEVICE-bs$bs.manifest.json"
  ROWS+="| $bs | fp32 | $(rate "$T/b$bs.npy.manifest.json") |"$'\n'
done

say "embed on a generated graph ($NODES nodes, $EDGES edges, $PRODUCTS products)"
$C graph generate --out "$T/g.sqlite" --nodes "$NODES" --edges "$EDGES" --products "$PRODUCTS" --seed 1 --text-source "$TEXTS" | tail -1
G="embed --graph $T/g.sqlite --products $T/g.products.jsonl --concepts $T/g.concepts.jsonl $E"
EMBED=""
for d in "$DEVICE" cpu; do
  s0=$(date +%s.%N)
  $C $G --out "$T/e-$d" --cache-dir "$T/c-$d" --device "$d" --batch-size 256 2>&1 | tail -1
  secs=$(echo "$(date +%s.%N) - $s0" | bc)
  cp "$T/e-$d/manifest.json" "$OUT/embed-$d.manifest.json"
  EMBED+="| $d | $(printf %.1f "$secs") |"$'\n'
  [ "$d" = "$DEVICE" ] && [ "$DEVICE" != cpu ] || break
done
[ "$DEVICE" = cpu ] && EMBED_VECTORS="(device is cpu: no second run)" || EMBED_VECTORS=$(compare "$T/e-cpu/embeddings.npy" "$T/e-$DEVICE/embeddings.npy")

PEER="not run: python3 cannot import torch and sentence_transformers"
if python3 -c 'import torch, sentence_transformers' 2>/dev/null && [ -f "$SHARED/gpu/st_peer.py" ]; then
  say "sentence-transformers peer"
  PYTHONUNBUFFERED=1 timeout 200 python3 "$SHARED/gpu/st_peer.py" "$TOKENIZER" "$T/s.txt" "$OUT/st.json" 2>&1 | grep -v Warning | tail -12 || true
  PEER="\`$OUT/st.json\` (sentence-transformers on CUDA, same sentences)"
fi

cat >"$OUT/section6.md" <<MD
## 6. GPU

Produced by \`scripts/gpu/check.sh --device $DEVICE\` on $(date -u +%F); GPU: ${GPU:-none}; $(nproc) cores; Node $($NODE --version).
Model: \`model make-bench --seed 1\` (MiniLM-shaped, random weights), fp32; $SENTENCES generated ASER-style sentences.

CPU against $DEVICE vectors (first $(wc -l <"$T/s10k.txt") sentences): \`$VECTORS\`

| batch size | dtype | sentences | encode s | sentences/s | provider | tokenize s | inference s | pooling s | session busy share |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
$ROWS
\`embed\` on a generated graph (\`graph generate --nodes $NODES --edges $EDGES --products $PRODUCTS --seed 1\`), batch 256:

| device | wall s |
| --- | --- |
$EMBED
Context vectors, CPU against $DEVICE: \`$EMBED_VECTORS\`

Peer: $PEER
MD
say "done: $OUT/section6.md"
rm -rf "$T"
