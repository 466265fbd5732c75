// Options that name a graph store, and the neighbourhood mode of commands that read a node's context.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import type { NeighbourhoodMode } from '../../graph/graph-store.js';

const NEIGHBOURHOOD_MODES: readonly NeighbourhoodMode[] = ['induced', 'incident'];

/** --graph: a store of either kind, which the command reads. */
export function addGraphStoreOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd.requiredOption('--graph <store>', 'graph store: a SQLite file or a bolt:// / neo4j:// URL');
}

/** --graph where another input can stand in for the graph (`pipeline --product-vectors`): the command checks. */
export function addOptionalGraphStoreOption<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(cmd: Command<Args, Opts, Globals>, instead: string) {
  return cmd.option('--graph <store>', `graph store: a SQLite file or a bolt:// / neo4j:// URL (not with ${instead})`);
}

/** --graph, for the commands that work on the SQLite file itself. */
export function addSqliteGraphOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd.requiredOption('--graph <file>', 'a SQLite graph store file');
}

/** --mode: which edges make a node's context (N(v) = predecessors ∪ successors ∪ {v}). */
export function addNeighbourhoodModeOption<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(cmd: Command<Args, Opts, Globals>) {
  return cmd.addOption(
    new Option(
      '--mode <mode>',
      "neighbourhood edges: induced (every edge among N(v); the released code) or incident (only v's edges)",
    )
      .choices(NEIGHBOURHOOD_MODES)
      .default('induced'),
  );
}

/**
 * --node-cache DIR: the folder of node-embeddings.sqlite, the node embeddings a rerun reuses (the
 * library's EmbedRunOptions.nodeCacheDir). `where` is the command's default, as help shows it.
 */
export function addNodeCacheOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  where: string,
) {
  return cmd.option('--node-cache <dir>', `the node cache: the folder of node-embeddings.sqlite (default ${where})`);
}
