// onnxruntime-node, loaded with require. It is a CommonJS package: imported from an ES module, Node
// first parses its files (and onnxruntime-common's, which it re-exports) with cjs-module-lexer for
// their export names, a cost that `encode`'s start-up paid on every run (issue 50); require skips it.
// The types are the package's own: `Ort` in type positions, `ort` for values.
import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-node';

export const ort = createRequire(import.meta.url)('onnxruntime-node') as typeof Ort;
