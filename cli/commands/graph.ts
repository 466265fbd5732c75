// `intentsim graph …`: building a graph store (import, generate, reindex-purchases), describing and
// exporting it (stats, export, neighbours). Matching a product catalogue to it is `catalog match`.
import { existsSync } from 'node:fs';
import { Option, type Command } from '@commander-js/extra-typings';
import { InputError, UserError } from '../../core/errors.js';
import { createProgress } from '../../core/progress.js';
import { redact } from '../../core/redact.js';
import {
  RELATION_SENSES,
  type GraphEdge,
  type GraphStore,
  type NeighbourhoodMode,
  type NodeId,
} from '../../graph/graph-store.js';
import { DEFAULT_IMPORT_BATCH, type ImportSummary } from '../../graph/import/import-checkpoint.js';
import { isNeo4jUri } from '../../graph/neo4j/neo4j-config.js';
import { edgeSentences } from '../../graph/relation-sentences.js';
import { addGraphStoreOption, addNeighbourhoodModeOption, addSqliteGraphOption } from '../options/graph-options.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addJsonOption } from '../options/output-options.js';
import { addDeprecatedOptions } from '../options/deprecated-spellings.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { matchCommand } from './catalog-match.js';
import { addSeedOption } from '../options/seed-option.js';
import { fraction, nonNegativeInt, positiveInt } from '../options/value-parsers.js';

function formatSummary(s: ImportSummary): string {
  const parts = [
    `${s.source} (${s.format}): ${s.records} records read in ${s.seconds.toFixed(1)} s`,
    `  written: ${s.nodesWritten} nodes, ${s.edgesWritten} edges` +
      (s.seconds > 0 && s.edgesWritten > 0 ? ` (${Math.round(s.edgesWritten / s.seconds)} edges/s)` : ''),
  ];
  if (s.alreadyImported > 0)
    parts.push(`  already imported by an earlier run (validated, not written again): ${s.alreadyImported}`);
  if (s.rejected > 0) parts.push(`  rejected: ${s.rejected}`);
  if (s.edgesWithoutSenses > 0)
    parts.push(`  edges whose sense columns are all 0 (imported without senses): ${s.edgesWithoutSenses}`);
  if (s.ignoredColumns.length > 0)
    parts.push(`  non-numeric Relations columns not imported: ${s.ignoredColumns.join(', ')}`);
  return parts.join('\n');
}

/** A comma-separated list wrapped to `width` columns, each line indented (help texts). */
function wrapList(items: readonly string[], indent: string, width: number): string {
  const lines: string[] = [];
  let line = indent;
  for (const [i, item] of items.entries()) {
    const word = item + (i < items.length - 1 ? ',' : '');
    if (line.length + word.length + 1 > width && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += word + ' ';
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

const IMPORT_HELP = `Imports a graph into a store: a SQLite file (created if missing) or a Neo4j
server (bolt://…). Nodes are eventuality texts; an edge head → tail carries
ASER relation senses with weights.

Imports are idempotent: nodes and edges are upserted (an edge written again
gets the senses of its last writing), so importing the same file twice leaves
one copy. They are resumable: after each committed batch the store records
how far the import got, and a re-run of an interrupted import skips the
writes of what was committed (it still reads and validates everything, so
that counts and the rejects file are complete). A file that changed (size,
mtime or content) starts over; so does --restart.

Input formats
  --aser-sqlite FILE
      ASER's own SQLite dump: table Eventualities(_id, words, …) and table
      Relations(_id, hid, tid, Precedence, …, Co_Occurrence), one REAL column
      per sense. Every eventuality becomes a node (its text is \`words\`); a sense
      is present on an edge when its column is > 0, and keeps its weight. An
      unknown numeric column in Relations is an unknown relation sense: an error.
  --jsonl FILE…
      One edge a line:
      {"head": "PersonX buy a phone", "tail": "PersonX call", "relations": {"Result": 1.0}}
      Weights must be numbers > 0; an unknown sense is an error (its field is
      relations.<Name>). The relation senses:
${wrapList(RELATION_SENSES, '      ', 78)}

Bad records stop the import with an error naming file, line (JSONL line or
SQLite rowid) and field; with --on-error skip they are counted and written to
a rejects JSONL file instead.

Examples
  intentsim graph import --to aser.sqlite --aser-sqlite KG.db
  intentsim graph import --to g.sqlite --jsonl e1.jsonl e2.jsonl --on-error skip
  intentsim graph import --to bolt://localhost:7687 --jsonl edges.jsonl`;

const STATS_HELP = `Prints the number of nodes, edges and purchase-event nodes of a graph store;
for a SQLite file also its schema version and the imports recorded in it.

Examples
  intentsim graph stats --graph aser.sqlite
  intentsim graph stats --graph aser.sqlite --json`;

const REINDEX_HELP = `The purchase-event index (which node texts are "[subject] verb [article]
object" purchase events, and their objects) is computed when nodes are
written. If the parser changed since a store was built, opening the store
says so; this command rebuilds the index in place.

Example
  intentsim graph reindex-purchases --graph aser.sqlite`;

const EXPORT_HELP = `Writes a SQLite graph store as the CSV files that \`neo4j-admin database import full\` reads: the
fast way to load a large graph (hundreds of millions of rows) into Neo4j, offline, instead of
\`graph import --to bolt://…\` transactions. The files follow the data model of the Neo4j store
(nodes :Eventuality with id, text and purchaseObjects; one relationship type per ASER sense with a
weight; NoSense for edges without senses; :PurchaseObject index nodes), with the same node ids.

Files in DIR
  nodes.csv, purchase-objects.csv, object-of.csv, rel-<Sense>.csv (one per sense present),
  rel-NoSense.csv, schema.cypher, neo4j-admin-import.sh (the printed command)

Then, on the Neo4j machine
  1. stop Neo4j (Community) or make sure the target database does not exist (Enterprise);
  2. run the printed neo4j-admin command (add --overwrite-destination to replace a database);
  3. start Neo4j (Enterprise: CREATE DATABASE name), then create the constraints, indexes and the
     schema marker: cypher-shell -d <database> -f DIR/schema.cypher
  4. use it: intentsim … --graph bolt://host:7687   (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE)

Example
  intentsim graph export --graph aser.sqlite --neo4j-admin /var/lib/neo4j/import/aser`;

const GENERATE_HELP = `Two generators, both seeded and deterministic: the same options give the same
graph and byte-identical JSONL files.

--demo --out DIR
  A small, semantically coherent demo world (about 340 nodes, 1,100 edges):
  47 product categories in 12 clusters. Purchase nodes ("PersonX buy a phone
  case") share context events inside a cluster (phones ~ chargers ~ cases),
  clusters are bridged by a few events (jewelry ~ beauty), near neighbours
  have similar words but other contexts (phone case ~ pencil case); there are
  hub events and a few isolated nodes. Writes into DIR:
    graph.sqlite      the graph store
    edges.jsonl       the same edges as a JSONL edge list
                      {"head", "tail", "relations": {"Reason": 2, …}}
    products.jsonl    {"id", "title"}: about 380 products
    assertions.jsonl  {"id", "item_a_id", "item_b_id", "relation",
                      "assertion", "typicality"}: FolkScope-style co-buy
                      intentions ("PersonX bought a product of Item A and a
                      product of Item B because …")
    concepts.jsonl    {"id", "phrases"}: three category phrases per product

--nodes N --edges M --out FILE
  A synthetic ASER-like graph with exactly N nodes and M distinct edges:
  power-law degrees (hubs), ASER-style node text (the lines of --text-source
  first, if given, then built-in synthetic events), a fraction of
  purchase-event nodes, 1–3 relation senses per edge. FILE is a SQLite store,
  a JSONL edge list if it ends in .jsonl (nodes without edges are then not
  written), or a bolt:// URL. With --products K, also a catalogue whose
  concept phrases match purchase nodes: <FILE stem>.products.jsonl and
  <FILE stem>.concepts.jsonl; with --assertions A as well, A co-buy assertions
  between products of the same kind, with reasons of that kind:
  <FILE stem>.assertions.jsonl.

Output files appear whole or not at all (temporary file, then rename).

Examples
  intentsim graph generate --demo --out demo
  intentsim graph generate --nodes 1000000 --edges 2000000 \\
      --out big.sqlite --products 100000
  intentsim graph generate --nodes 50000 --edges 100000 --out g.jsonl \\
      --text-source ../shared/data/aser-style/eventualities.txt --seed 7`;

const NEIGHBOURS_HELP = `Looks a node up by its exact text (or store id) and prints the edges of its
one-hop context, each with its relation senses and weights, and the sentences
the senses produce (the templates that context embeddings are computed from,
e.g. Reason: "{h} because {t}.").

Modes (N(v) = predecessors ∪ successors ∪ {v}):
  induced   every edge among N(v), edges between two neighbours included
            (the released IntentionQA code: G.subgraph(N(v))); the default
  incident  only the edges that touch v

JSON output (--json):
  {"node": {"id", "text"}, "mode", "edgeCount", "sentenceCount",
   "edges": [{"head": {"id", "text"}, "tail": {"id", "text"},
              "senses": {"Reason": 2}, "sentences": ["… because …."]}]}

Examples
  intentsim graph neighbours --graph demo/graph.sqlite \\
      --text "PersonX buy a phone case"
  intentsim graph neighbours --graph demo/graph.sqlite \\
      --text "PersonX buy a phone" --mode incident --json`;

export function registerGraphCommands(program: Command): void {
  const graph = program
    .command('graph')
    .description('build, import, inspect and export an ASER-style eventuality graph (SQLite file or Neo4j)');

  const importCommand = graph
    .command('import')
    .summary('import an ASER SQLite dump or JSONL edge lists into a graph store')
    .description(IMPORT_HELP)
    .requiredOption(
      '--to <store>',
      'the store to write: a SQLite file (created if missing) or a bolt:// / neo4j:// URL',
    )
    .addOption(
      new Option('--aser-sqlite <file>', 'an ASER SQLite dump (tables Eventualities, Relations)').conflicts('jsonl'),
    )
    .option('--jsonl <files...>', 'JSONL edge lists, one edge a line');
  addDeprecatedOptions(importCommand, [{ flags: '--batch <n>', use: '--batch-records', parse: positiveInt }]);
  const importOptions = addJsonOption(
    addBadInputOptions(importCommand, 'the --rejects file')
      .option(
        '--rejects <file>',
        'where skipped records go (default: <store>.rejects.jsonl, or import.rejects.jsonl for a server)',
      )
      .option(
        '--batch-records <n>',
        'input records (edges; for an ASER dump, rows) per write transaction',
        positiveInt,
        DEFAULT_IMPORT_BATCH,
      )
      .option('--restart', 'ignore the checkpoints of an earlier run and write everything again'),
  );
  // A --rejects given with --on-error fail is never written, and still checked.
  declarePaths(importOptions, async (o) =>
    mergePaths((await import('../../graph/import/import-graph.js')).importPaths({ ...o, to: o.to }), {
      outputFiles: { rejects: o.rejects },
    }),
  ).action(async (opts) => {
    if (!opts.aserSqlite && !(opts.jsonl && opts.jsonl.length > 0)) {
      throw new UserError('graph import: give --aser-sqlite FILE or --jsonl FILE… (see --help)');
    }
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { importGraph } = await import('../../graph/import/import-graph.js');
    const result = await importGraph({
      to: opts.to,
      aserSqlite: opts.aserSqlite,
      jsonl: opts.jsonl,
      onError: opts.onError,
      rejects: opts.rejects,
      batchSize: opts.batchRecords,
      restart: opts.restart ?? false,
      limits: inputLimits(opts),
    });
    if (opts.json) {
      const rejects = result.rejects && { count: result.rejects.count, path: result.rejects.path };
      process.stdout.write(JSON.stringify({ store: redact(opts.to), imports: result.imports, rejects }) + '\n');
    } else {
      for (const s of result.imports) process.stdout.write(formatSummary(s) + '\n');
      if (result.rejects) process.stdout.write(`${result.rejects.summary}\n`);
    }
  });

  const stats = graph
    .command('stats')
    .summary('print the counts (and, for a SQLite file, the metadata) of a graph store')
    .description(STATS_HELP);
  declarePaths(addJsonOption(addGraphStoreOption(stats)), async (o) => ({
    inputFiles: { graph: (await import('../../graph/open-store.js')).graphStoreFile(o.graph) },
  })).action(async (opts) => {
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { openGraphStore } = await import('../../graph/open-store.js');
    const { SqliteGraphStore } = await import('../../graph/sqlite/sqlite-store.js');
    const store = await openGraphStore(opts.graph);
    try {
      const counts = await store.counts();
      const metadata = store instanceof SqliteGraphStore ? store.metadata() : undefined;
      if (opts.json) {
        process.stdout.write(
          JSON.stringify({
            store: redact(opts.graph),
            kind: store.kind,
            ...counts,
            ...(metadata ? { metadata } : {}),
          }) + '\n',
        );
        return;
      }
      const lines = [
        `${redact(opts.graph)} (${store.kind})`,
        `  nodes: ${counts.nodes}`,
        `  edges: ${counts.edges}`,
        `  purchase-event nodes: ${counts.purchaseNodes}`,
      ];
      if (metadata) {
        lines.push(`  schema version: ${metadata.schemaVersion}, created ${metadata.createdAt}`);
        for (const [key, value] of Object.entries(metadata.imports)) {
          const v = value as { complete?: boolean; done?: number; phase?: string };
          lines.push(`  import ${key}: ${v.complete ? 'complete' : `interrupted (${v.phase} up to ${v.done})`}`);
        }
      }
      process.stdout.write(lines.join('\n') + '\n');
    } finally {
      await store.close();
    }
  });

  const reindex = graph
    .command('reindex-purchases')
    .summary('rebuild the purchase-event index of a SQLite store with the current parser')
    .description(REINDEX_HELP);
  // The store is rewritten in place: its one path is an input that must exist.
  declarePaths(addSqliteGraphOption(reindex), (o) => ({ inputFiles: { graph: o.graph } })).action(async (opts) => {
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { SqliteGraphStore } = await import('../../graph/sqlite/sqlite-store.js');
    const store = SqliteGraphStore.open(opts.graph, { mode: 'write', allowStalePurchaseIndex: true });
    const { nodes } = await store.counts();
    const progress = createProgress({ label: 'reindex purchases', total: nodes, unit: 'nodes' });
    try {
      await store.reindexPurchases((n) => progress.increment(n));
    } finally {
      progress.stop();
    }
    const counts = await store.counts();
    await store.close();
    process.stdout.write(`${opts.graph}: ${counts.purchaseNodes} purchase-event nodes among ${counts.nodes} nodes\n`);
  });

  const exportCommand = graph
    .command('export')
    .summary('write a SQLite graph store as neo4j-admin import CSV files (bulk load into Neo4j)')
    .description(EXPORT_HELP);
  const exportOptions = addSqliteGraphOption(exportCommand)
    .requiredOption('--neo4j-admin <dir>', 'directory for the CSV files (created; files in it are replaced)')
    .option('--database <name>', 'database name in the printed neo4j-admin command', 'neo4j');
  declarePaths(addJsonOption(exportOptions), async (o) =>
    // A Neo4j URI is refused by the action, with its own message.
    isNeo4jUri(o.graph)
      ? {}
      : (await import('../../graph/export/neo4j-admin-export.js')).neo4jAdminExportPaths(o.graph, o.neo4jAdmin),
  ).action(async (opts) => {
    if (isNeo4jUri(opts.graph)) {
      throw new UserError(
        `graph export: --graph must be a SQLite graph store file, got a Neo4j URI (${redact(opts.graph)})`,
      );
    }
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { exportNeo4jAdmin, sqliteDumpSource } = await import('../../graph/export/neo4j-admin-export.js');
    const source = sqliteDumpSource(opts.graph);
    const { nodes, edges } = await source.counts();
    const progress = createProgress({ label: 'export for neo4j-admin', total: nodes + edges, unit: 'rows' });
    let reported = 0;
    let stopped = false;
    try {
      const result = await exportNeo4jAdmin(source, opts.neo4jAdmin, {
        database: opts.database,
        onProgress: (rows) => {
          progress.increment(rows - reported);
          reported = rows;
        },
      });
      progress.stop();
      stopped = true;
      if (opts.json) {
        process.stdout.write(JSON.stringify({ store: opts.graph, ...result }) + '\n');
        return;
      }
      const rels = Object.entries(result.relationships)
        .map(([type, n]) => `${type} ${n}`)
        .join(', ');
      process.stdout.write(
        [
          `${result.dir}: ${result.nodes} nodes, ${result.edges} edges (${rels || 'no relationships'}), ${result.purchaseObjects} purchase objects`,
          '',
          'Import (Neo4j stopped, or the database absent):',
          result.command,
          '',
          'Then, with Neo4j running:',
          result.schemaCommand,
          '',
        ].join('\n'),
      );
    } finally {
      if (!stopped) progress.stop();
      await source.close();
    }
  });

  const generate = graph
    .command('generate')
    .summary('write the demo world, or a synthetic graph of a given size')
    .description(GENERATE_HELP)
    .requiredOption('--out <path>', 'with --demo: a directory; otherwise: the graph file (.sqlite or .jsonl) or URL')
    .addOption(new Option('--demo', 'write the demo world').conflicts(['nodes', 'edges']))
    .option('--nodes <n>', 'number of nodes', positiveInt)
    .option('--edges <m>', 'number of distinct directed edges', nonNegativeInt);
  const generateOptions = addSeedOption(generate, nonNegativeInt)
    .option('--products <k>', 'scale generator: also write a catalogue of k products', nonNegativeInt, 0)
    .option('--products-out <file>', 'where the catalogue goes (default: <out stem>.products.jsonl)')
    .option('--concepts-out <file>', 'where its concepts go (default: <out stem>.concepts.jsonl)')
    .option('--assertions <n>', 'scale generator: also write n co-buy assertions over the catalogue', nonNegativeInt, 0)
    .option('--assertions-out <file>', 'where the assertions go (default: <out stem>.assertions.jsonl)')
    .option('--text-source <file>', 'node texts to use first, one a line (e.g. ASER eventualities)')
    .option('--purchase-fraction <f>', 'fraction of nodes that are purchase events', fraction, 0.05);
  declarePaths(addJsonOption(generateOptions), async (o) =>
    o.demo
      ? { outputDirs: { out: o.out } }
      : // The catalogue's files are named even without --products: a path given is checked.
        mergePaths(
          (await import('../../graph/generate/generate-scale.js')).writeScalePaths(o.out, {
            ...o,
            nodes: o.nodes ?? 0,
            edges: o.edges ?? 0,
          }),
          {
            outputFiles: { productsOut: o.productsOut, conceptsOut: o.conceptsOut, assertionsOut: o.assertionsOut },
          },
        ),
  ).action(async (opts) => {
    if (opts.demo) {
      // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
      const { writeDemo } = await import('../../engine/demo/demo-world.js');
      const r = await writeDemo(opts.out, { seed: opts.seed });
      if (opts.json) process.stdout.write(JSON.stringify(r) + '\n');
      else {
        process.stdout.write(
          `demo world written to ${r.dir}: ${r.files.join(', ')}\n` +
            `  ${r.nodes} nodes, ${r.edges} edges, ${r.products} products, ${r.assertions} assertions\n`,
        );
      }
      return;
    }
    if (opts.nodes === undefined || opts.edges === undefined) {
      throw new UserError('graph generate: give --demo, or --nodes N and --edges M (see --help)');
    }
    if (opts.textSource && !existsSync(opts.textSource))
      throw new UserError(`--text-source ${opts.textSource}: no such file`);
    const scale = {
      nodes: opts.nodes,
      edges: opts.edges,
      seed: opts.seed,
      textSource: opts.textSource,
      purchaseFraction: opts.purchaseFraction,
      products: opts.products,
      productsOut: opts.productsOut,
      conceptsOut: opts.conceptsOut,
      assertions: opts.assertions,
      assertionsOut: opts.assertionsOut,
    };
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { writeScaleGraph } = await import('../../graph/generate/generate-scale.js');
    const r = await writeScaleGraph(opts.out, scale);
    if (opts.json) process.stdout.write(JSON.stringify(r) + '\n');
    else {
      const lines = [
        `${r.out} (${r.kind}): ${r.nodes} nodes, ${r.edges} edges, ${r.purchaseNodes} generated purchase-event nodes` +
          (r.sourceLines > 0 ? `, ${r.sourceLines} texts from the text source` : ''),
      ];
      if (r.kind === 'jsonl') lines.push('  (a JSONL edge list holds no nodes without edges)');
      if (r.productsOut) lines.push(`  ${r.products} products: ${r.productsOut}, concepts: ${r.conceptsOut}`);
      if (r.assertionsOut) lines.push(`  ${r.assertions} co-buy assertions: ${r.assertionsOut}`);
      process.stdout.write(lines.join('\n') + '\n');
    }
  });

  const neighbours = graph
    .command('neighbours')
    .alias('neighbors')
    .summary("print a node's one-hop context: edges, senses, weights and the sentences they give")
    .description(NEIGHBOURS_HELP);
  const neighboursOptions = addNeighbourhoodModeOption(
    addGraphStoreOption(neighbours)
      .addOption(new Option('--text <text>', 'the node text, exactly as stored').conflicts('id'))
      .option('--id <id>', 'the node id in this store', nonNegativeInt),
  ).option('--limit <n>', 'print at most n edges (all are still counted)', positiveInt);
  declarePaths(addJsonOption(neighboursOptions), async (o) => ({
    inputFiles: { graph: (await import('../../graph/open-store.js')).graphStoreFile(o.graph) },
  })).action(async (opts) => {
    if (opts.text === undefined && opts.id === undefined)
      throw new UserError('graph neighbours: give --text TEXT or --id ID');
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { openGraphStore } = await import('../../graph/open-store.js');
    const store = await openGraphStore(opts.graph);
    try {
      await printNeighbours(store, opts);
    } finally {
      await store.close();
    }
  });

  // `graph match` is the old path of `catalog match`, kept for one release.
  graph.addCommand(matchCommand('catalog match'), { hidden: true });
}

interface NeighboursQuery {
  graph: string;
  text?: string;
  id?: number;
  mode: NeighbourhoodMode;
  limit?: number;
  json?: boolean;
}

async function resolveNode(store: GraphStore, opts: NeighboursQuery): Promise<{ id: NodeId; text: string }> {
  if (opts.id !== undefined) {
    const text = (await store.nodeTexts([opts.id])).get(opts.id);
    if (text === undefined) throw new UserError(`${opts.graph}: no node with id ${opts.id}`);
    return { id: opts.id, text };
  }
  const text = opts.text!;
  const id = (await store.lookupIds([text])).get(text);
  if (id === undefined) {
    throw new InputError(
      { file: opts.graph, field: 'text' },
      `no node with the exact text ${JSON.stringify(text)} (texts are case- and space-sensitive)`,
    );
  }
  return { id, text };
}

async function printNeighbours(store: GraphStore, opts: NeighboursQuery): Promise<void> {
  const node = await resolveNode(store, opts);
  const limit = opts.limit ?? Infinity;
  const shown: GraphEdge[] = [];
  let edgeCount = 0;
  let sentenceCount = 0;
  // Streamed, so that a hub's context is never held whole when --limit is given.
  for await (const batch of store.streamNeighbourhood(node.id, opts.mode)) {
    for (const e of batch) {
      edgeCount += 1;
      sentenceCount += edgeSentences(e).length;
      if (shown.length < limit) shown.push(e);
    }
  }
  if (opts.json) {
    const edges = shown.map((e) => ({
      head: { id: e.head, text: e.headText },
      tail: { id: e.tail, text: e.tailText },
      senses: e.senses,
      sentences: edgeSentences(e),
    }));
    process.stdout.write(JSON.stringify({ node, mode: opts.mode, edgeCount, sentenceCount, edges }) + '\n');
    return;
  }
  const lines = [`node ${node.id}: ${node.text}`, `mode ${opts.mode}: ${edgeCount} edges, ${sentenceCount} sentences`];
  for (const e of shown) {
    const senses = Object.entries(e.senses)
      .map(([s, w]) => `${s} ${w}`)
      .join(', ');
    lines.push(`  [${e.head}] ${e.headText}  →  [${e.tail}] ${e.tailText}   (${senses})`);
    for (const s of edgeSentences(e)) lines.push(`      ${s}`);
  }
  if (shown.length < edgeCount) lines.push(`  … ${edgeCount - shown.length} more edges (raise --limit)`);
  process.stdout.write(lines.join('\n') + '\n');
}
