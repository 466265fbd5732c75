// The cosine windows of SessionIntentBench's distractor-backed items and their defaults: apart from
// distractors.ts so that the command line can show the defaults without loading it (issue 50).

export interface CosineWindow {
  lo: number;
  hi: number;
}

export interface DistractorWindows {
  /** Catalogue product vs the replaced P_t (T1 hard negatives: close to it, not serving I_{t-1}). */
  intention: CosineWindow;
  /** Catalogue product vs the replaced P_t (T2 hard negatives: close to it, not holding A_{t-1}). */
  attribute: CosineWindow;
  /** Other session's comparison vs C_t (T3 negatives). */
  comparison: CosineWindow;
  /** Catalogue product vs P_t (next-product options). */
  nextProduct: CosineWindow;
}

/**
 * Measured on the demo session set with glove-100d (docs/sib.md): products of the replaced one's and
 * the neighbouring categories sit at 0.55–0.95 of it, other categories below 0.6. Tune them for your
 * encoder (the summary shows eligible counts and refusals).
 */
export const DEFAULT_WINDOWS: DistractorWindows = {
  intention: { lo: 0.5, hi: 0.97 },
  attribute: { lo: 0.5, hi: 0.97 },
  comparison: { lo: 0.5, hi: 0.9 },
  nextProduct: { lo: 0.5, hi: 0.9 },
};
