// onnxruntime-node, loaded with require. It is a CommonJS package: imported from an ES module, Node
// first parses its files (and onnxruntime-common's, which it re-exports) with cjs-module-lexer for
// their export names, a cost that `encode`'s start-up paid on every run (issue 50); require skips it.
// The types are the package's own: `Ort` in type positions, `ort` for values.
import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-node';
import { keepOrtTelemetryOff } from './ort-telemetry.js';

keepOrtTelemetryOff(); // before ORT's environment exists: it reads the variable once
export const ort = createRequire(import.meta.url)('onnxruntime-node') as typeof Ort;

/**
 * Creates ORT's environment now (≈ 45 ms of one thread on the 2-core AMD EPYC VM, otherwise paid by
 * the first session), so that it overlaps with work on other threads, such as a model file's read.
 * It calls the package's own once-only initialiser (dist/binding.js, no public entry point); where
 * a future version lacks it, nothing happens and the first session pays as before.
 */
export function initializeOrtEarly(): void {
  try {
    const binding = createRequire(import.meta.url)('onnxruntime-node/dist/binding.js') as { initOrt?: () => void };
    binding.initOrt?.();
  } catch {
    // Only a head start; the session initialises ORT itself.
  }
}
