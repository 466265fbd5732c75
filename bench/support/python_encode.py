"""The Python pipeline a user would run instead of `intentsim encode`: HF tokenizers (Rust) +
onnxruntime + numpy, mean pooling over real tokens and L2 normalisation, written as .npy.
bench/startup.ts times this whole process against `node bin/intentsim.js encode` on the same model
and sentences. Usage: python3 python_encode.py MODEL_DIR DTYPE SENTENCES OUT THREADS BATCH"""
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

model_dir, dtype, sentences_path, out_path = sys.argv[1:5]
threads, batch_size = int(sys.argv[5]), int(sys.argv[6])

tokenizer = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
tokenizer.enable_truncation(256)
tokenizer.no_padding()  # tokenizer.json may carry a fixed padding; each batch is padded below
options = ort.SessionOptions()
options.intra_op_num_threads = threads
onnx_file = "model.onnx" if dtype == "fp32" else "model_quantized.onnx"
session = ort.InferenceSession(f"{model_dir}/onnx/{onnx_file}", options, providers=["CPUExecutionProvider"])
inputs = {i.name for i in session.get_inputs()}

with open(sentences_path, encoding="utf-8") as f:
    sentences = f.read().split("\n")
if sentences and sentences[-1] == "":
    sentences.pop()

vectors = np.zeros((len(sentences), 0), dtype=np.float32)
rows = []
for start in range(0, len(sentences), batch_size):
    encodings = tokenizer.encode_batch(sentences[start : start + batch_size])
    seq = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), seq), dtype=np.int64)
    mask = np.zeros((len(encodings), seq), dtype=np.int64)
    for r, e in enumerate(encodings):
        ids[r, : len(e.ids)] = e.ids
        mask[r, : len(e.ids)] = 1
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    hidden = session.run(None, {k: v for k, v in feeds.items() if k in inputs})[0]
    summed = (hidden * mask[:, :, None]).sum(axis=1)
    pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
    rows.append(pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12))
np.save(out_path, np.concatenate(rows).astype(np.float32))
