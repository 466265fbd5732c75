"""FAISS's exact range search, what a Python user would run instead of intentsim's window ranges:
IndexFlatIP over the unit vectors, range_search of the first QUERIES rows at RADIUS (inner product =
cosine on unit vectors; FAISS keeps scores > RADIUS). bench/range-faiss.ts runs it on the same vectors
as the engine's MatrixRanges and compares the pairs. Writes OUT_PREFIX.lims and OUT_PREFIX.ids (int64,
little-endian, FAISS's own layout) and prints one JSON line of timings.
Usage: python3 faiss_range.py VECTORS.npy QUERIES RADIUS THREADS OUT_PREFIX"""
import json
import sys
import time

import faiss
import numpy as np

vectors_path, queries, radius, threads, out_prefix = sys.argv[1:6]
queries, radius, threads = int(queries), float(radius), int(threads)
faiss.omp_set_num_threads(threads)
x = np.load(vectors_path).astype(np.float32, copy=False)

wall, cpu = time.perf_counter(), time.process_time()
index = faiss.IndexFlatIP(x.shape[1])
index.add(x)
lims, _scores, ids = index.range_search(x[:queries], radius)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu

lims.astype("<i8").tofile(out_prefix + ".lims")
ids.astype("<i8").tofile(out_prefix + ".ids")
# Which BLAS FAISS's products ran on: Debian's reference libblas is many times slower than OpenBLAS.
try:
    with open("/proc/self/maps", encoding="utf-8") as maps:
        blas = sorted({line.split()[-1] for line in maps if "blas" in line.split()[-1]})
except OSError:
    blas = []
print(json.dumps({"seconds": wall, "cpu_seconds": cpu, "pairs": int(lims[-1]), "faiss": faiss.__version__, "blas": blas}))
