// Compares two .npy float32 matrices row by row, in Node (the GPU check needs no numpy):
// min cosine and max |difference| over the rows both have. Usage: node compare-vectors.mjs APP A.npy B.npy
// (APP: the folder holding dist/, whose .npy reader is used). Prints one JSON line.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [app, first, second] = process.argv.slice(2);
if (!app || !first || !second) throw new Error('usage: node compare-vectors.mjs APP A.npy B.npy');
const { readNpyFloat32 } = await import(pathToFileURL(join(app, 'dist/core/npy.js')).href);
const a = await readNpyFloat32(first);
const b = await readNpyFloat32(second);
const dim = a.shape[1];
if (dim !== b.shape[1]) throw new Error(`${first} has ${dim} columns, ${second} ${b.shape[1]}`);
const rows = Math.min(a.shape[0], b.shape[0]);
let minCos = Infinity;
let maxAbsDiff = 0;
for (let r = 0; r < rows; r++) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = r * dim; d < (r + 1) * dim; d++) {
    const x = a.data[d];
    const y = b.data[d];
    dot += x * y;
    na += x * x;
    nb += y * y;
    maxAbsDiff = Math.max(maxAbsDiff, Math.abs(x - y));
  }
  // Two zero rows (no vector) agree; one zero row against a vector does not.
  const cos = na === 0 && nb === 0 ? 1 : na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
  minCos = Math.min(minCos, cos);
}
console.log(JSON.stringify({ rows, minCos, maxAbsDiff }));
