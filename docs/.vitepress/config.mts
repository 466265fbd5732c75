// The manual as a site (`npm run docs:build`). The pages stay plain Markdown that reads the same on
// GitHub: the site's sources are the repository itself (srcDir '..'), so a link such as
// `../bench/report.md` from docs/ resolves here exactly as it does there, and the README is the
// site's home page. Anchors are GitHub's, for the same reason: a heading's slug is the same in both.
import { posix } from 'node:path';
import { defineConfig } from 'vitepress';
import { githubSlug } from './github-slug.js';

const guides = [
  ['Installing intentsim', '/docs/install'],
  ['What it does', '/docs/overview'],
  ['The demo', '/docs/demo'],
  ['Commands', '/docs/commands'],
  ['Graph stores and matching', '/docs/graph'],
  ['Embeddings and the GPU', '/docs/embeddings-gpu'],
  ['Pipeline and IntentionQA items', '/docs/pipeline'],
  ['SIB, catalogue, ShoppingBench', '/docs/items'],
  ['The Redis queue', '/docs/queue'],
  ['Evaluation', '/docs/evaluation'],
  ['Audit with a judge model', '/docs/audit'],
  ['Review by hand', '/docs/review'],
  ['Library API', '/docs/library'],
  ['Benchmarks', '/docs/benchmarks'],
  ['Models and data', '/docs/models-and-data'],
  ['Architecture', '/docs/architecture'],
  ['Development', '/docs/development'],
] as const;
const references = [
  ['Graph store', '/docs/graph-store'],
  ['Neo4j', '/docs/neo4j'],
  ['Purchase-event matching', '/docs/graph-match'],
  ['Embeddings', '/docs/embeddings'],
  ['IntentionQA items', '/docs/intentionqa'],
  ['SessionIntentBench', '/docs/sib'],
  ['Catalogue and ShoppingBench', '/docs/catalog'],
  ['Distributed work', '/docs/distributed'],
  ['Reliability', '/docs/reliability'],
  ['Benchmark report', '/bench/report'],
  ['Benchmark report, large', '/bench/large/report'],
  ['API report (API Extractor)', '/etc/intentsim.api'],
  ['CHANGELOG', '/CHANGELOG'],
] as const;
const items = (list: readonly (readonly [string, string])[]) => list.map(([text, link]) => ({ text, link }));

export default defineConfig({
  title: 'intentsim',
  description:
    'ASER context embeddings and distractor-backed multiple-choice items for IntentionQA and SessionIntentBench',
  srcDir: '..',
  // The pages: README.md, CHANGELOG.md, docs/ (with the generated docs/api/), the benchmark reports
  // and the API report. Everything else in the repository that ends in .md is not part of the site.
  srcExclude: [
    'engine/**',
    'test/**',
    'examples/**',
    'scripts/**',
    'bench/results/**',
    '.cache/**',
    'demo-out/**',
    'out/**',
    '.gpu-pack/**',
    '**/node_modules/**',
    '**/dist/**',
  ],
  rewrites: { 'README.md': 'index.md' },
  // Only local files are checked here (and by the link check after the build); outside addresses are not fetched.
  ignoreDeadLinks: false,
  lastUpdated: false,
  vite: {
    // The local search index holds every API page (about 1.4 MB): one chunk, loaded only when searching.
    build: { chunkSizeWarningLimit: 2048 },
    // The site's tools live in docs/node_modules (docs/package.json), out of the project's own npm ci.
    // A page outside docs/ (the README, the CHANGELOG) would look for Vue from its own folder upwards,
    // where the project has none; the server bundle leaves it external, to be imported from
    // docs/.vitepress/.temp/, beside docs/node_modules. (The client bundle has VitePress's own alias.)
    plugins: [
      {
        name: 'intentsim-vue-external-in-ssr',
        enforce: 'pre',
        resolveId(source: string, _importer: string | undefined, options: { ssr?: boolean }) {
          return options.ssr === true && (source === 'vue' || source === 'vue/server-renderer')
            ? { id: source, external: true }
            : null;
        },
      },
    ],
  },
  markdown: {
    anchor: { slugify: githubSlug },
    // The README is the home page (the rewrite above): a link to it, from any page, is a link to the home page.
    config(md) {
      md.core.ruler.push('readme-is-home', (state) => {
        const page = (state.env as { relativePath?: string }).relativePath ?? '';
        for (const block of state.tokens) {
          for (const token of block.children ?? []) {
            const href = token.type === 'link_open' ? token.attrGet('href') : null;
            if (href === null || /^[a-z]+:/i.test(href)) continue;
            const [path = '', fragment] = href.split('#');
            if (path !== '' && posix.join(posix.dirname(page), path) === 'README.md') {
              const home = posix.relative(posix.dirname(page), 'index.md');
              token.attrSet('href', fragment === undefined ? home : `${home}#${fragment}`);
            }
          }
        }
      });
    },
  },
  themeConfig: {
    nav: [
      { text: 'Manual', link: '/docs/' },
      { text: 'API', link: '/docs/api/' },
      { text: 'CHANGELOG', link: '/CHANGELOG' },
    ],
    sidebar: [
      {
        text: 'Front page',
        items: [
          { text: 'README', link: '/' },
          { text: 'The manual', link: '/docs/' },
        ],
      },
      { text: 'Guides', items: items(guides) },
      { text: 'References', collapsed: true, items: items(references) },
      { text: 'API', items: [{ text: 'Every export of index.ts', link: '/docs/api/' }] },
    ],
    outline: 'deep',
    search: { provider: 'local' },
  },
});
