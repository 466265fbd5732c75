// `intentsim pipeline --product-vectors PATH`: IntentionQA items from product vectors the user already
// has, without a graph: no matching, no context embedding. The vectors are a `catalog index` folder
// (its chunks, checked against their sidecars) or an `.npy` matrix with an ids file (one id a line, in
// row order; default ids.txt beside the matrix). From there it is the pipeline's stage 2: the window
// search, the draws (with the validity filters) and the report.
//
// What differs from `pipeline` with a graph, and is said in the manifest and the report:
//   - the encoder's calibration does not apply (the vectors' model is not the pipeline's to know), so
//     the Task-1 and Task-2 windows and the difficulty cut points must be given; centering is off
//     unless asked for;
//   - concept phrases (for concept overlap and the generic filter's groups) come from a concepts file,
//     or else from the titles' head phrases (engine/products/title-head-concepts.ts);
//   - there are no intention vectors: the second-answer filter counts only equal normalised texts.
// Layout of OUT: items/ as `pipeline` writes it, embeddings/ with the window search (reused by a rerun)
// and the mean when centered, and manifest.json last.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, UserError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { writeNpyMatrix } from '../../core/npy.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { RejectsSink } from '../../core/rejects.js';
import { warning } from '../../core/notice.js';
import { readAssertions, type Assertion } from '../items/intentionqa/assertions.js';
import { IntentionQaRun } from '../items/intentionqa/build-items.js';
import { collapsedSimilarityWarning } from '../items/intentionqa/collapsed-similarities.js';
import type { DifficultyCuts } from '../items/intentionqa/difficulty.js';
import { draftInParallel, resolveItemWorkers } from '../items/intentionqa/draft-pool.js';
import { presetOverrides, type PresetOptions, type WindowBounds } from '../items/intentionqa/intentionqa-options.js';
import type { ValiditySettings } from '../items/intentionqa/validity-filters.js';
import { writeItems } from '../items/intentionqa/write-items.js';
import { loadUserConcepts } from '../products/concepts.js';
import { readProducts, type Product } from '../products/products.js';
import { titleHeadPhrases } from '../products/title-head-concepts.js';
import { centerVectors } from '../search/centering.js';
import { UnitVectors } from '../search/unit-vectors.js';
import { EMBEDDINGS_MEAN_FILE, type PipelineItemOptions } from './run-pipeline.js';
import { givenVectorsInputs, loadGivenVectors } from './given-vectors.js';

export interface ProductVectorsPipelineOptions {
  /** A `catalog index` folder, or an `.npy` matrix (rows × dim, float32) of product vectors. */
  productVectors: string;
  /** With an `.npy`: the ids of its rows, one a line (default: ids.txt beside it). */
  productIds?: string;
  /** Products JSONL (id, title): the titles of Task 2's options and of the report. */
  products: string;
  assertions: string;
  /** Concepts JSONL (id, phrases); absent: the titles' head phrases. */
  concepts?: string;
  /** Stage 2's options; task1Window, task2Window and difficulty are required here. */
  items: PipelineItemOptions;
  out: string;
  onError: OnError;
  limits?: InputLimits;
  progress?: boolean;
}

export interface ProductVectorsManifest {
  format: 'intentsim-pipeline-vectors/1';
  inputs: {
    /** Where the vectors came from, and what kind of source it is. */
    productVectors: string;
    productVectorsKind: 'catalog-index' | 'npy';
    productIds: string | null;
    /** The catalog index's model, when the vectors are one; null for an `.npy`. */
    vectorsModel: string | null;
    products: string;
    assertions: string;
    concepts: string | null;
  };
  /** Why the windows and cut points were given, not calibrated; and how concepts and second answers were had. */
  notes: string[];
  options: {
    itemWorkers: number;
    seed: string;
    preset: string;
    sampling: string;
    presetOverrides: Partial<PresetOptions>;
    task1Window: WindowBounds;
    task2Window: WindowBounds;
    difficulty: DifficultyCuts;
    center: boolean;
    search: string;
    excludePairAsserted: boolean;
    excludeGeneric: boolean;
    excludeSecondAnswers: boolean;
    genericMinGroups: number;
  };
  validity: ValiditySettings | null;
  counts: {
    vectors: number;
    dim: number;
    products: number;
    /** Products of the products file without a vector row. */
    productsWithoutVector: number;
    assertions: number;
    assertionsRejected: number;
    task1Items: number;
    task2Items: number;
    dropped: { task1: Record<string, number>; task2: Record<string, number>; both: Record<string, number> };
  };
  warnings: string[];
  timings: Record<string, number>;
  outputs: { items: string; report: string; mean: string | null };
}

/** Why the calibration is not applied: said in the manifest, the report and on stdout. */
export const NO_CALIBRATION_NOTE =
  "the vectors were given, not made by the pipeline's encoder: its calibration does not apply, so the windows and difficulty cut points are the ones given";

/** The paths read and written, checked before any work. */
export function productVectorsPaths(
  o: Pick<
    ProductVectorsPipelineOptions,
    'productVectors' | 'productIds' | 'products' | 'assertions' | 'concepts' | 'out'
  >,
): PathChecks {
  return {
    inputFiles: {
      products: o.products,
      assertions: o.assertions,
      concepts: o.concepts,
      ...givenVectorsInputs(o),
    },
    outputDirs: { out: o.out },
  };
}

export async function runPipelineFromVectors(o: ProductVectorsPipelineOptions): Promise<ProductVectorsManifest> {
  checkPaths(productVectorsPaths(o));
  if (!existsSync(o.productVectors)) throw new UserError(`${o.productVectors}: no such file or folder`);
  const { workers: itemWorkerRequest = 'auto', center: givenCenter, ...given } = o.items;
  const missing = (['task1Window', 'task2Window', 'difficulty'] as const).filter((k) => given[k] === undefined);
  if (missing.length > 0)
    throw new ConfigError(
      missing[0]!,
      `must be given with productVectors (missing: ${missing.join(', ')}): ${NO_CALIBRATION_NOTE}`,
    );
  const completionFiles = [join(o.out, 'manifest.json')];
  return withClaimedOutput(o.out, 'folder', { completionFiles }, async () => {
    const started = performance.now();
    const timings: Record<string, number> = {};
    const itemsDir = join(o.out, 'items');
    const searchDir = join(o.out, 'embeddings');
    let t = performance.now();
    const assertionRejects = new RejectsSink(join(itemsDir, 'assertions.rejects.jsonl'));
    const assertions: Assertion[] = [];
    for await (const a of readAssertions(o.assertions, { ...o.limits, onError: o.onError, rejects: assertionRejects }))
      assertions.push(a);
    await assertionRejects.close();
    const products: Product[] = [];
    for await (const p of readProducts(o.products, o.limits)) products.push({ id: p.id, title: p.title });
    const titles = new Map(products.map((p) => [p.id, p.title]));
    const phrases = o.concepts ? await loadUserConcepts(o.concepts, o.limits) : await titleHeadPhrases(products);
    const vectors = await loadGivenVectors(o);
    timings.loadInputs = Math.round(performance.now() - t);

    t = performance.now();
    const center = givenCenter ?? false;
    const meanFile = join(searchDir, EMBEDDINGS_MEAN_FILE);
    let set = vectors.set;
    if (center) {
      const centered = centerVectors(set);
      await writeNpyMatrix(meanFile, centered.mean, 1, set.dim);
      set = centered.centered;
    } else await rm(meanFile, { force: true });
    const run = await IntentionQaRun.prepare({
      products: titles,
      assertions,
      embeddings: UnitVectors.fromVectorSet(set),
      phrases,
      options: {
        ...given,
        indexPath: join(searchDir, 'products.hnsw'),
        rangesPath: join(searchDir, 'window-ranges.bin'),
        progress: o.progress ?? false,
      },
    });
    timings.search = Math.round(performance.now() - t);

    t = performance.now();
    const itemWorkers = resolveItemWorkers(itemWorkerRequest, run.size);
    const records =
      itemWorkers > 0 ? draftInParallel(run, { workers: itemWorkers, progress: o.progress ?? false }) : run.records();
    const source = `${vectors.kind === 'catalog-index' ? 'catalog index' : '.npy'} ${o.productVectors}${vectors.model ? ` (${vectors.model})` : ''}`;
    const notes = [
      NO_CALIBRATION_NOTE,
      o.concepts
        ? `concept phrases from ${o.concepts}`
        : "concept phrases from the titles' head phrases (no graph, no concepts file)",
      'no intention vectors: the second-answer filter counts only equal normalised intention texts',
    ];
    const settings = run.settings({
      caveat: `product vectors given: ${source}; ${notes.join('; ')}`,
      encoder: { name: vectors.model ?? basename(o.productVectors), sentenceBert: false, centered: center },
    });
    const written = await writeItems(records, itemsDir, settings);
    timings.items = Math.round(performance.now() - t);
    const collapsed = collapsedSimilarityWarning(run.similarityDistribution(), settings.encoder?.name ?? source);
    const warnings = collapsed === undefined ? [] : [collapsed];
    for (const w of warnings) warning(w);
    timings.total = Math.round(performance.now() - started);

    const ro = run.options;
    const withVector = new Set(set.ids);
    const manifest: ProductVectorsManifest = {
      format: 'intentsim-pipeline-vectors/1',
      inputs: {
        productVectors: o.productVectors,
        productVectorsKind: vectors.kind,
        productIds: vectors.ids,
        vectorsModel: vectors.model,
        products: o.products,
        assertions: o.assertions,
        concepts: o.concepts ?? null,
      },
      notes,
      options: {
        itemWorkers,
        seed: String(ro.seed),
        preset: ro.preset,
        sampling: ro.sampling,
        presetOverrides: presetOverrides(ro),
        task1Window: ro.task1Window,
        task2Window: ro.task2Window,
        difficulty: ro.difficulty,
        center,
        search: settings.search,
        excludePairAsserted: ro.excludePairAsserted,
        excludeGeneric: ro.excludeGeneric,
        excludeSecondAnswers: ro.excludeSecondAnswers,
        genericMinGroups: ro.genericMinGroups,
      },
      validity: run.validitySettings() ?? null,
      counts: {
        vectors: set.ids.length,
        dim: set.dim,
        products: products.length,
        productsWithoutVector: products.filter((p) => !withVector.has(p.id)).length,
        assertions: assertions.length + assertionRejects.count,
        assertionsRejected: assertionRejects.count,
        task1Items: written.stats.task1.items,
        task2Items: written.stats.task2.items,
        dropped: {
          task1: written.stats.task1.dropped,
          task2: written.stats.task2.dropped,
          both: written.stats.droppedBoth,
        },
      },
      warnings,
      timings,
      outputs: { items: itemsDir, report: written.files.report, mean: center ? meanFile : null },
    };
    await writeFileAtomic(join(o.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  });
}
