// Validity rule `vacuous`: an intention that says nothing about any product ("because they both are
// capable of giving him a good service", "because he thought they were good products") fits every
// pair, so it is never a distractor, and an assertion whose own intention is vacuous makes no item.
// Measured from the data, not listed: a word is *generic* when the pairs whose intentions use it span
// at least `minGroups` unrelated concept groups (the generic filter's groups, now per word: "quality"
// is used for 23 groups of the released IntentionQA pairs, "watch" for 4, "earrings" for 1), and an
// intention is vacuous when every word of its key is generic. On the released assertions at the
// default cut-off (6 groups) that is 503 of 2,315 assertions (341 at 8); the generic filter (whole
// texts) finds a subset of them.
import type { ConceptGroupCounter } from './concept-groups.js';

/** The default cut-off: a word used for pairs of this many unrelated concept groups is generic. */
export const DEFAULT_VACUOUS_WORD_GROUPS = 6;

export interface VacuousIntentions {
  /** 1 at the key id of each vacuous intention. */
  vacuousId: Uint8Array;
  /** The generic words, most groups first (then by text): what the report shows. */
  genericWords: Array<{ word: string; groups: number }>;
}

/**
 * Which keys are vacuous. `slotsOfId[id]`: the pair slots key id is asserted for; `counter` counts
 * the concept groups of a set of slots (from the words of both products of each).
 */
export function vacuousIntentions(
  keyOfId: readonly string[],
  slotsOfId: ReadonlyArray<readonly number[]>,
  counter: ConceptGroupCounter<string>,
  minGroups: number,
): VacuousIntentions {
  const wordsOfKey = keyOfId.map((key) => [...new Set(key.split(' ').filter((w) => w !== ''))]);
  const idsOfWord = new Map<string, number[]>();
  wordsOfKey.forEach((words, id) => {
    for (const w of words) {
      let ids = idsOfWord.get(w);
      if (!ids) idsOfWord.set(w, (ids = []));
      ids.push(id);
    }
  });
  let slotCount = 0;
  for (const slots of slotsOfId) for (const s of slots) slotCount = Math.max(slotCount, s + 1);
  // A word's pairs: the slots of its keys, each once (a stamp per word marks the slots taken).
  const stampOfSlot = new Int32Array(slotCount);
  const slotsOfWord: number[] = [];
  const groupsOfWord = new Map<string, number>();
  let stamp = 0;
  for (const [w, ids] of idsOfWord) {
    stamp += 1;
    slotsOfWord.length = 0;
    for (const id of ids)
      for (const s of slotsOfId[id]!)
        if (stampOfSlot[s] !== stamp) {
          stampOfSlot[s] = stamp;
          slotsOfWord.push(s);
        }
    // Fewer pairs than the cut-off cannot span enough groups.
    if (slotsOfWord.length < minGroups) continue;
    groupsOfWord.set(w, counter.groups(slotsOfWord));
  }
  const generic = (w: string) => (groupsOfWord.get(w) ?? 0) >= minGroups;
  const vacuousId = Uint8Array.from(wordsOfKey, (words) => (words.length > 0 && words.every(generic) ? 1 : 0));
  const genericWords = [...groupsOfWord]
    .filter(([, g]) => g >= minGroups)
    .map(([word, groups]) => ({ word, groups }))
    .sort((x, y) => y.groups - x.groups || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0));
  return { vacuousId, genericWords };
}
