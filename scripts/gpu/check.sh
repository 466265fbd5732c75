#!/usr/bin/env bash
# The GPU check (issue 30): run on the GPU machine from the bundle scripts/gpu/pack.sh made (node.xz,
# app.tar.xz, debs/ next to this script), or from a checkout with Node on PATH. Writes section 6 of
# the bench report, as Markdown, to $OUT/section6.md (and the raw output next to it):
#   - CPU against device vectors (min cosine, max |diff|), computed in Node;
#   - pooling in the ONNX graph against pooling in JavaScript, on the device;
#   - encode throughput on the device at several batch sizes, fp32 and fp16 (--dtype fp16: the
#     model converted by the engine itself), and fp16 against fp32 vectors;
#   - embed on a generated graph, device against CPU, in nodes/s and sentences/s;
#   - the sentence-transformers peer, when python3 can import torch and sentence_transformers.
# Sized for one 10-minute device call on an H200 (about 6 minutes: the peer is capped at 200 s).
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
DTYPES="fp32 fp16"
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
# `timeout` on every step: one step that hangs must not cost the rest of the call.
STEP=${STEP_TIMEOUT:-150}
C="timeout $STEP $NODE $APP/bin/intentsim.js"
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
E="--model-dir $T/m --offline --model-cache $T/cache"
compare() { "$NODE" "$HERE/compare-vectors.mjs" "$APP" "$1" "$2"; }
summarise() { "$NODE" "$HERE/summarise.mjs" "$@"; }

say "vectors: cpu vs $DEVICE (each with its default pooling)"
$C encode --in "$T/s10k.txt" --out "$T/cpu.npy" $E --device cpu 2>&1 | tail -1
$C encode --in "$T/s10k.txt" --out "$T/dev.npy" $E --device "$DEVICE" 2>&1 | tail -1
VECTORS=$(compare "$T/cpu.npy" "$T/dev.npy" || echo failed)
echo "$VECTORS"
say "pooling on $DEVICE: graph vs js"
$C encode --in "$T/s10k.txt" --out "$T/dev-graph.npy" $E --device "$DEVICE" --pooling graph 2>&1 | tail -1
$C encode --in "$T/s10k.txt" --out "$T/dev-js.npy" $E --device "$DEVICE" --pooling js 2>&1 | tail -1
POOLING=$(compare "$T/dev-js.npy" "$T/dev-graph.npy" || echo failed)
echo "$POOLING"

ROWS=""
FP16=""
for bs in $BATCHES; do
  for dt in $DTYPES; do
    say "encode $DEVICE $dt batch $bs"
    $C encode --in "$T/s.txt" --out "$T/b$bs-$dt.npy" $E --device "$DEVICE" --batch-size "$bs" --dtype "$dt" 2>&1 | tail -1 || true
    if [ -f "$T/b$bs-$dt.npy.manifest.json" ]; then
      cp "$T/b$bs-$dt.npy.manifest.json" "$OUT/encode-$DEVICE-$dt-bs$bs.manifest.json"
      ROWS+="$(summarise encode-row "$T/b$bs-$dt.npy.manifest.json" "$bs" "$dt")"$'\n'
    else
      ROWS+="| $bs | $dt | failed (see check-log.txt) |"$'\n'
    fi
  done
  [ -f "$T/b$bs-fp32.npy" ] && [ -f "$T/b$bs-fp16.npy" ] && FP16+="batch $bs: \`$(compare "$T/b$bs-fp32.npy" "$T/b$bs-fp16.npy")\`; "
  rm -f "$T/b$bs-"*.npy
done

say "embed on a generated graph ($NODES nodes, $EDGES edges, $PRODUCTS products)"
$C graph generate --out "$T/g.sqlite" --nodes "$NODES" --edges "$EDGES" --products "$PRODUCTS" --seed 1 --text-source "$TEXTS" | tail -1
G="embed --graph $T/g.sqlite --products $T/g.products.jsonl --concepts $T/g.concepts.jsonl $E"
EMBED=""
for d in "$DEVICE" cpu; do
  s0=$(date +%s.%N)
  $C $G --out "$T/e-$d" --node-cache "$T/c-$d" --device "$d" 2>&1 | tail -1 || true
  secs=$(echo "$(date +%s.%N) - $s0" | bc)
  if [ -f "$T/e-$d/manifest.json" ]; then
    cp "$T/e-$d/manifest.json" "$OUT/embed-$d.manifest.json"
    EMBED+="$(summarise embed-row "$T/e-$d/manifest.json" "$d" "$secs")"$'\n'
  else
    EMBED+="| $d | failed (see check-log.txt) |"$'\n'
  fi
  [ "$d" = "$DEVICE" ] && [ "$DEVICE" != cpu ] || break
done
[ "$DEVICE" = cpu ] && EMBED_VECTORS="(device is cpu: no second run)" || EMBED_VECTORS=$(compare "$T/e-cpu/embeddings.npy" "$T/e-$DEVICE/embeddings.npy")

PEER="not run: python3 cannot import torch and sentence_transformers"
if python3 -c 'import torch, sentence_transformers' 2>/dev/null && [ -f "$SHARED/gpu/st_peer.py" ]; then
  say "sentence-transformers peer"
  PYTHONUNBUFFERED=1 timeout 200 python3 "$SHARED/gpu/st_peer.py" "$TOKENIZER" "$T/s.txt" "$OUT/st.json" 2>&1 | grep -v Warning | tail -12 || true
  [ -f "$OUT/st.json" ] && PEER="sentence-transformers on CUDA, the same sentences (\`st.json\`): $(summarise peer "$OUT/st.json")" ||
    PEER="sentence-transformers did not finish (see check-log.txt)"
fi

cat >"$OUT/section6.md" <<MD
## 6. GPU

Produced by \`scripts/gpu/check.sh --device $DEVICE\` on $(date -u +%F); GPU: ${GPU:-none}; $(nproc) cores; Node $($NODE --version).
Model: \`model make-bench --seed 1\` (MiniLM-shaped, random weights), fp32 unless fp16 is said
(\`--dtype fp16\`: converted by intentsim's own float16 conversion); $SENTENCES generated ASER-style sentences.
Defaults unless said: batch size and pooling per provider (webgpu/cuda: 256, pooling in the graph; cpu: 64, pooling in JavaScript).

CPU against $DEVICE vectors (first $(wc -l <"$T/s10k.txt") sentences, default options on each): \`$VECTORS\`

Pooling in the graph against pooling in JavaScript, both on $DEVICE: \`$POOLING\`

fp16 against fp32 vectors on $DEVICE: ${FP16:-not run}

| batch size | dtype | sentences | encode s | sentences/s | provider | pooling | tokenize s | inference s | pooling s | session busy share |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
$ROWS
\`embed\` on a generated graph (\`graph generate --nodes $NODES --edges $EDGES --products $PRODUCTS --seed 1\`), default batch size and pooling:

| device | wall s | open s | nodes s | nodes | nodes/s | sentences | sentences/s | tokenize s | inference s | pooling s | batch | pooling |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
$EMBED
Context vectors, CPU against $DEVICE: \`$EMBED_VECTORS\`

Peer: $PEER
MD
say "done: $OUT/section6.md"
rm -rf "$T"
