// Kinds of products for the scale generator's co-buy assertions (graph/generate/scale-assertions.ts):
// each product noun of scale-vocab.ts belongs to exactly one kind, and each kind has the purposes
// people buy its products for. An assertion pairs two products of one kind and gives a reason drawn
// from that kind, so that the reasons of one kind share words with each other and with the
// products' phrases, and those of different kinds mostly do not: word-vector encoders (glove-100d)
// then see thin, meaningful windows instead of one collapsed cloud.
import { PRODUCT_NOUNS } from './scale-vocab.js';

export interface ProductKind {
  name: string;
  /** Indices into PRODUCT_NOUNS. */
  nouns: readonly number[];
  /** What a co-buy of this kind is for ("they are both used for {purpose}"). */
  purposes: readonly string[];
}

/** [kind, first noun index, purposes]: the nouns of scale-vocab.ts are listed kind by kind. */
const KIND_TABLE: ReadonlyArray<[string, number, string[]]> = [
  ['electronics', 0, ['charging a phone', 'working on a computer', 'listening to music', 'taking photos']],
  ['lighting and climate', 21, ['lighting a dark room', 'keeping the house warm', 'cooling the bedroom']],
  ['kitchen appliances', 26, ['making breakfast', 'cleaning the floor', 'brewing hot drinks']],
  ['tableware and cookware', 31, ['serving dinner', 'cooking a meal', 'drinking coffee at work']],
  ['bags and travel', 40, ['packing for a trip', 'carrying a lunch to school', 'travelling by plane']],
  ['clothing', 48, ['staying warm in winter', 'dressing for a party', 'wearing to the office']],
  ['shoes and accessories', 62, ['walking in the city', 'completing an outfit', 'running in the park']],
  ['jewelry', 68, ['giving a birthday gift', 'dressing up for a wedding']],
  ['personal care', 73, ['taking a shower', 'brushing teeth', 'smelling nice']],
  ['bedroom and bath', 78, ['sleeping well at night', 'decorating the bedroom', 'drying off after a bath']],
  ['furniture and decor', 85, ['setting up a home office', 'decorating the living room', 'telling the time']],
  ['garden', 93, ['growing vegetables', 'watering the garden']],
  ['outdoor and sports', 97, ['camping in the woods', 'riding to work', 'exercising at home', 'playing tennis']],
  ['toys and games', 105, ['playing with the kids', 'having a game night']],
  ['books and office', 110, ['studying for an exam', 'taking notes in class', 'organising the office']],
  ['music', 117, ['learning to play music', 'playing in a band']],
  ['pets', 120, ['feeding the dog', 'walking the dog', 'caring for a cat']],
  ['baby', 124, ['caring for a newborn baby', 'taking the baby out']],
  ['food and gifts', 128, ['giving a holiday gift', 'hosting a dinner party', 'relaxing after work']],
];

/** The kinds, in table order; together their nouns are every index of PRODUCT_NOUNS, once. */
export const PRODUCT_KINDS: readonly ProductKind[] = KIND_TABLE.map(([name, from, purposes], k) => {
  const to = k + 1 < KIND_TABLE.length ? KIND_TABLE[k + 1]![1] : PRODUCT_NOUNS.length;
  return { name, nouns: Array.from({ length: to - from }, (_, i) => from + i), purposes };
});

const KIND_OF_NOUN = new Map<string, number>();
PRODUCT_KINDS.forEach((kind, k) => {
  for (const n of kind.nouns) KIND_OF_NOUN.set(PRODUCT_NOUNS[n]!, k);
});

/** The kind index of a product noun of PRODUCT_NOUNS. */
export function kindOfNoun(noun: string): number {
  const k = KIND_OF_NOUN.get(noun);
  if (k === undefined) throw new RangeError(`"${noun}" is not a product noun of the scale vocabulary`);
  return k;
}
