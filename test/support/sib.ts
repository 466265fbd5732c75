// Test helpers for the SessionIntentBench suites: hand-built sessions and tiny deterministic encoders.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SentenceEncoder } from '../../embeddings/sentence-encoder.js';
import { parseSession } from '../../engine/items/sib/session-reader.js';
import type { SibSession } from '../../engine/items/sib/sib-types.js';

export interface NodeSpec {
  id: string;
  parent: string | null;
  step: number;
  intention?: string;
  attribute?: string;
  comparison?: string | null;
}

/** A session record (as JSON) with products P1..Pn and the given nodes, text fields filled in. */
export function sessionJson(id: string, productCount: number, nodes: NodeSpec[]): Record<string, unknown> {
  return {
    session_id: id,
    products: Array.from({ length: productCount }, (_, i) => ({
      id: `${id}-p${i + 1}`,
      title: `Product ${i + 1} of ${id}`,
      attributes: { rank: i + 1 },
    })),
    tree: nodes.map((n) => ({
      id: n.id,
      parent: n.parent,
      step: n.step,
      intention: n.intention ?? `intention ${n.id}`,
      attribute: n.attribute ?? `attribute ${n.id}`,
      rationale: `because ${n.id}`,
      comparison: n.comparison !== undefined ? n.comparison : n.step >= 2 ? `comparison ${n.id}` : null,
    })),
  };
}

export function session(json: Record<string, unknown>): SibSession {
  return parseSession(json, { file: 'test.jsonl', line: 1 });
}

/** A full tree where a node at step s has fanOut(s) children, down to `depth` steps. */
export function fullTree(depth: number, fanOut: (step: number) => number): NodeSpec[] {
  const nodes: NodeSpec[] = [];
  const visit = (id: string, parent: string | null, step: number) => {
    nodes.push({ id, parent, step });
    if (step === depth) return;
    for (let b = 1; b <= fanOut(step); b++) visit(`${id}.${b}`, id, step + 1);
  };
  visit('n1', null, 1);
  return nodes;
}

export function tempDir(prefix = 'sib-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeJsonl(dir: string, name: string, rows: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return path;
}

/** Looks every sentence up in a fixed table; an unknown sentence is a test bug and throws. */
export class TableEncoder implements SentenceEncoder {
  readonly name = 'test-table';
  readonly provider = 'none';
  readonly dim: number;
  calls = 0;

  constructor(private readonly table: Readonly<Record<string, readonly number[]>>) {
    const dims = new Set(Object.values(table).map((v) => v.length));
    if (dims.size !== 1) throw new Error('TableEncoder: vectors of different lengths');
    this.dim = [...dims][0]!;
  }

  async encode(sentences: readonly string[]): Promise<Float32Array> {
    this.calls += 1;
    const out = new Float32Array(sentences.length * this.dim);
    sentences.forEach((s, i) => {
      const v = this.table[s];
      if (!v) throw new Error(`TableEncoder: no vector for ${JSON.stringify(s)}`);
      out.set(v, i * this.dim);
    });
    return out;
  }

  async close(): Promise<void> {}
}

/** Bag of hashed lower-case words, L2-normalised: texts sharing words are close. Deterministic. */
export class WordHashEncoder implements SentenceEncoder {
  readonly name = 'test-word-hash';
  readonly provider = 'none';
  constructor(readonly dim = 32) {}

  async encode(sentences: readonly string[]): Promise<Float32Array> {
    const out = new Float32Array(sentences.length * this.dim);
    sentences.forEach((s, i) => {
      for (const word of s
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean)) {
        let h = 0x811c9dc5;
        for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), 0x01000193) >>> 0;
        out[i * this.dim + (h % this.dim)]! += 1;
      }
      let norm = 0;
      for (let k = 0; k < this.dim; k++) norm += out[i * this.dim + k]! ** 2;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let k = 0; k < this.dim; k++) out[i * this.dim + k]! /= norm;
    });
    return out;
  }

  async close(): Promise<void> {}
}
