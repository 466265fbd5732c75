// The SessionIntentBench data model: sessions, intention trees, trajectories and the four tasks.

/** The four SessionIntentBench tasks (paper numbering). */
export type TaskNumber = 1 | 2 | 3 | 4;
export const TASK_NUMBERS: readonly TaskNumber[] = [1, 2, 3, 4];

/** The three prompt styles of the paper: Table 8 (zero-shot), Tables 9–12 (5-shot), Table 13 (CoT). */
export type PromptStyle = 'zero-shot' | 'five-shot' | 'cot';
export const PROMPT_STYLES: readonly PromptStyle[] = ['zero-shot', 'five-shot', 'cot'];

export interface SibProduct {
  id: string;
  title: string;
  /** Attribute name → value, in the order the input file gives them. */
  attributes: ReadonlyArray<readonly [string, string]>;
  /**
   * Optional category path, broadest first (["Beauty", "Skin Care", "Sunscreens"]): never shown in a
   * prompt; the distractor rules use it (serve-rules.ts: same kind, neighbouring categories).
   */
  category?: readonly string[];
}

/** One node of a session's intention tree: the intention held after seeing product `step`. */
export interface IntentionNode {
  id: string;
  /** null at the root. */
  parent: string | null;
  /** 1-based index of the product this intention belongs to. */
  step: number;
  intention: string;
  /** The valued attribute A_step of product `step`. */
  attribute: string;
  rationale: string;
  /** C_step: comparison of product step-1 with product step; null at step 1 (nothing to compare). */
  comparison: string | null;
}

/** A session whose tree has been validated (see tree.ts for the rules). */
export interface SibSession {
  sessionId: string;
  products: readonly SibProduct[];
  /** Nodes in input order. */
  nodes: readonly IntentionNode[];
  /** Each node's children (by node id), in input order; leaves have no entry. */
  children: ReadonlyMap<string, readonly IntentionNode[]>;
  root: IntentionNode;
}

/** A root-to-leaf path of an intention tree: `path[i]` is the node at step i+1. */
export interface Trajectory {
  session: SibSession;
  path: readonly IntentionNode[];
}

export function trajectoryLeaf(t: Trajectory): IntentionNode {
  return t.path[t.path.length - 1]!;
}
