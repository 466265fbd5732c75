// The cosine windows of SessionIntentBench's distractor-backed items and their defaults: apart from
// distractors.ts so that the command line can show the defaults without loading it (issue 50).

export interface CosineWindow {
  lo: number;
  hi: number;
}

export interface DistractorWindows {
  /** Catalogue product vs I_{t-1} (T1 hard negatives). */
  intention: CosineWindow;
  /** Catalogue product vs A_{t-1} (T2 hard negatives). */
  attribute: CosineWindow;
  /** Other session's comparison vs C_t (T3 negatives). */
  comparison: CosineWindow;
  /** Catalogue product vs P_t (next-product options). */
  nextProduct: CosineWindow;
}

/** Starting points, not tuned on real data: tune them for your encoder (the summary shows eligible counts). */
export const DEFAULT_WINDOWS: DistractorWindows = {
  intention: { lo: 0.3, hi: 0.7 },
  attribute: { lo: 0.3, hi: 0.7 },
  comparison: { lo: 0.5, hi: 0.9 },
  nextProduct: { lo: 0.5, hi: 0.9 },
};
