// Table rows of the GPU check's section 6 (scripts/gpu/check.sh), from the manifests the engine
// wrote; plain Node, no dependencies. Usage:
//   node summarise.mjs encode-row MANIFEST BATCH DTYPE   one row of the encode table
//   node summarise.mjs embed-row MANIFEST DEVICE WALL_S  one row of the embed table
//   node summarise.mjs peer ST_JSON                      the sentence-transformers peer, as a table
import { readFileSync } from 'node:fs';

const [kind, file, ...rest] = process.argv.slice(2);
const json = (path) => JSON.parse(readFileSync(path, 'utf8'));
const s = (ms) => ((ms ?? 0) / 1000).toFixed(2);
const rate = (n, ms) => (ms > 0 ? Math.round((n * 1000) / ms) : 0);
const row = (cells) => `| ${cells.join(' | ')} |`;

if (kind === 'encode-row') {
  const [batch, dtype] = rest;
  const e = json(file).encoder ?? {};
  const st = e.stats ?? {};
  console.log(
    row([
      batch,
      dtype,
      st.sentences,
      s(st.encodeMs),
      rate(st.sentences, st.encodeMs),
      e.provider,
      e.pooling ?? 'js',
      s(st.tokenizeMs),
      s(st.inferenceMs),
      s(st.poolingMs),
      e.sessionBusyShare,
    ]),
  );
} else if (kind === 'embed-row') {
  const [device, wall] = rest;
  const m = json(file);
  const e = m.encoder ?? {};
  const st = e.stats ?? {};
  const c = m.counts?.context ?? {};
  const t = m.timings ?? {};
  console.log(
    row([
      device,
      Number(wall).toFixed(1),
      s(t.openEncoderMs),
      s(t.nodesMs),
      c.computed,
      rate(c.computed, t.nodesMs),
      c.sentencesEncoded,
      rate(c.sentencesEncoded, t.nodesMs),
      s(st.tokenizeMs),
      s(st.inferenceMs),
      s(st.poolingMs),
      e.batchSize ?? '',
      e.pooling ?? '',
    ]),
  );
} else if (kind === 'peer') {
  const p = json(file);
  const lines = ['| sentence-transformers | batch | sentences/s |', '| --- | --- | --- |'];
  for (const [key, value] of Object.entries(p)) {
    const m = /^st_(fp\d+)_bs(\d+)_sent_per_s$/.exec(key);
    if (m) lines.push(row([m[1], m[2], Math.round(value)]));
  }
  if (p.hf_tokenize_sent_per_s) lines.push(row(['HF tokenizers alone', 256, Math.round(p.hf_tokenize_sent_per_s)]));
  console.log(`${p.gpu ?? ''}, torch ${p.torch ?? '?'}, ${p.sentences} sentences\n\n${lines.join('\n')}`);
} else {
  console.error('usage: node summarise.mjs encode-row|embed-row|peer FILE …');
  process.exit(2);
}
