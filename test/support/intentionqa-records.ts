// IntentionQA records split into the emitted items and the dropped assertions (shared by the suites
// that run the item assembly).
import type {
  DroppedAssertion,
  IntentionQaItem,
  IntentionQaRecord,
} from '../../engine/items/intentionqa/item-types.js';

export async function collectRecords(
  records: AsyncIterable<IntentionQaRecord>,
): Promise<{ items: IntentionQaItem[]; dropped: DroppedAssertion[] }> {
  const items: IntentionQaItem[] = [];
  const dropped: DroppedAssertion[] = [];
  for await (const r of records) {
    if (r.kind === 'item') items.push(r.item);
    else dropped.push(r.dropped);
  }
  return { items, dropped };
}
