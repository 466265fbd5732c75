// The filters applied to assertions before either task: excluded relations, then typicality. What
// they drop never becomes an item, is never a distractor, and (with the `assertions` Task-2 universe)
// contributes no distractor product.
import type { Assertion } from './assertions.js';
import type { IntentionQaOptions } from './intentionqa-options.js';

export type FilterOptions = Pick<
  IntentionQaOptions,
  'typicalityThreshold' | 'typicalityComparison' | 'excludeRelations'
>;

export interface FilterDrop {
  reason: 'relation-excluded' | 'typicality-below-min';
  detail: string;
}

export function passesTypicality(typicality: number, o: FilterOptions): boolean {
  return o.typicalityComparison === 'above' ? typicality > o.typicalityThreshold : typicality >= o.typicalityThreshold;
}

/** Why the filters drop an assertion, or undefined when they keep it. */
export function filterDrop(a: Assertion, o: FilterOptions, excluded: ReadonlySet<string>): FilterDrop | undefined {
  if (excluded.has(a.relation)) return { reason: 'relation-excluded', detail: `relation "${a.relation}" is excluded` };
  if (!passesTypicality(a.typicality, o)) {
    // `<` for at-least keeps this engine's earlier wording; `≤` says that the threshold itself fails.
    const failed = o.typicalityComparison === 'above' ? '≤' : '<';
    return { reason: 'typicality-below-min', detail: `typicality ${a.typicality} ${failed} ${o.typicalityThreshold}` };
  }
  return undefined;
}
