// The Markdown as GitHub shows it: the README is a front page (at most 300 lines) from which every
// page of docs/ can be reached, and every local link of the README, the CHANGELOG, docs/ and the
// benchmark reports finds its file and, with a #fragment, its heading by GitHub's slug. (The built
// site is checked the same way by `npm run docs:build`, with linkinator; this check needs no build.)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../core/shared-files.js';
import { githubSlug } from '../docs/.vitepress/github-slug.js';

const root = projectRoot();
const docsPages = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const pages = ['README.md', 'CHANGELOG.md', ...docsPages, 'bench/report.md', 'bench/large/report.md'];

/** The lines of a Markdown file outside fenced code blocks, numbered from 1. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((l, i) => {
    if (l.startsWith('```')) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** The anchors GitHub gives a file: each heading's slug (a repeated one with -1, -2, …) and each `<a id>`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: l } of proseLines(text)) {
    for (const m of l.matchAll(/<a id="([^"]+)"/g)) anchors.add(m[1]!);
    const heading = /^#{1,6} (.*)$/.exec(l);
    if (!heading) continue;
    const plain = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const slug = githubSlug(plain);
    const n = seen.get(slug);
    seen.set(slug, (n ?? -1) + 1);
    anchors.add(n === undefined ? slug : `${slug}-${n + 1}`);
  }
  return anchors;
}

/** The local link targets of a Markdown file, with their lines (outside code: spans and fences). */
function localLinks(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text: l } of proseLines(text)) {
    const prose = l.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1]!)) links.push({ line, target: m[1]! });
    }
  }
  return links;
}

describe('the README and the manual, as Markdown', () => {
  it("slugs headings as GitHub does (the site's anchors are the same)", () => {
    expect(githubSlug("Task 2's product universe")).toBe('task-2s-product-universe');
    expect(githubSlug('3. Store operations')).toBe('3-store-operations');
    expect(githubSlug('The judge: intentsim audit')).toBe('the-judge-intentsim-audit');
    expect(githubSlug('Other encoders: windows, cut points and centering')).toBe(
      'other-encoders-windows-cut-points-and-centering',
    );
    expect(githubSlug('q8 on every CPU')).toBe('q8-on-every-cpu');
    expect(githubSlug('Set-up: two commands')).toBe('set-up-two-commands');
    expect(githubSlug('Unreleased (after 0.1.0)')).toBe('unreleased-after-010');
    expect(githubSlug('SessionIntentBench, catalogue items — and ShoppingBench')).toBe(
      'sessionintentbench-catalogue-items--and-shoppingbench',
    );
    expect([...anchorsOf('# A\n## B\n```\n## C\n```\n## B\n<a id="x"></a>text\n')]).toEqual(['a', 'b', 'b-1', 'x']);
  });

  it('the README is a front page of at most 300 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('every local link finds its file, and its #fragment a heading', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(root, page), 'utf8');
      for (const { line, target } of localLinks(text)) {
        const [path = '', fragment] = target.split('#');
        const file = path === '' ? page : normalize(join(dirname(page), decodeURI(path)));
        // docs/api/ is TypeDoc's output: `npm run docs:build` writes and checks it.
        if (file.startsWith('docs/api/')) continue;
        if (!existsSync(join(root, file))) broken.push(`${page}:${line}: ${target}: no file ${file}`);
        else if (fragment !== undefined && file.endsWith('.md')) {
          if (!anchorsOf(readFileSync(join(root, file), 'utf8')).has(fragment)) {
            broken.push(`${page}:${line}: ${target}: no heading #${fragment} in ${file}`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every page of docs/ can be reached from the README by links', () => {
    const reached = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const page = queue.shift()!;
      for (const { target } of localLinks(readFileSync(join(root, page), 'utf8'))) {
        const path = target.split('#')[0]!;
        if (path === '' || !path.endsWith('.md')) continue;
        const file = relative(root, join(root, dirname(page), path));
        if (!reached.has(file) && existsSync(join(root, file))) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(docsPages.filter((p) => !reached.has(p))).toEqual([]);
    expect(reached.has('CHANGELOG.md')).toBe(true);
  });
});
