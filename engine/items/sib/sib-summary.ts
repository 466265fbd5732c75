// sib-summary.json: the counts of a SessionIntentBench assembly, accumulated session by session, with
// the settings, the annotations no task used (and why) and the rejects.
import type { RejectsSink } from '../../../core/rejects.js';
import type { Annotation, AnnotationIndex } from './annotations.js';
import {
  DISTRACTOR_KINDS,
  type DistractorKind,
  type DistractorOutcome,
  type DistractorWindows,
} from './distractors.js';
import type { WrittenTask } from './task-json.js';
import type { ServeRules } from './serve-rules.js';
import { taskApplies } from './task-prompts.js';
import { countTrajectories } from './tree.js';
import {
  TASK_NUMBERS,
  trajectoryLeaf,
  type PromptStyle,
  type SibSession,
  type TaskNumber,
  type Trajectory,
} from './sib-types.js';

export type TaskCounts = Record<`T${TaskNumber}`, number>;

export interface SibSummary {
  inputs: { sessions: string; annotations: string | null; catalog: string | null };
  settings: {
    seed: number | string;
    styles: PromptStyle[];
    per_session: number | null;
    encoder: string | null;
    windows: DistractorWindows | null;
    serve_rules: ServeRules | null;
    comparison_pool: number | null;
  };
  sessions: { read: number; trajectories: number; selected_trajectories: number };
  tasks: {
    written: number;
    by_task: TaskCounts;
    /** Distinct question keys: tasks with equal prompts counted once. */
    distinct_questions: TaskCounts;
    /** Trajectories of one node (step 1), where T1–T3 are undefined. */
    not_applicable: TaskCounts;
    labelled: TaskCounts;
    label_ties: number;
    label_ties_without_binary: number;
  };
  annotations: {
    read: number;
    used: number;
    unused: number;
    unused_by_reason: Record<string, number>;
    unused_examples: string[];
  } | null;
  distractors: {
    made: Record<DistractorKind, number>;
    failed: Record<DistractorKind, Record<string, number>>;
    /** Window members refused while drawing, by kind and reason (serve-rules.ts; `same-title`). */
    refused: Record<DistractorKind, Record<string, number>>;
    next_product_gold_positions: Record<string, number>;
    catalogue_products: number;
    comparison_pool: number;
  } | null;
  rejects: { count: number; by_reason: Record<string, number>; file: string | null };
  outputs: { tasks: string; distractors: string | null };
}

const zeroCounts = (): TaskCounts => ({ T1: 0, T2: 0, T3: 0, T4: 0 });

/** What the summary records before the first session. */
export interface SibSummaryStart {
  inputs: SibSummary['inputs'];
  settings: SibSummary['settings'];
  /** Sizes of the distractor sources; null when no distractor items are made. */
  distractors: { catalogueProducts: number; comparisonPool: number } | null;
  outputs: SibSummary['outputs'];
}

export class SibSummaryBuilder {
  private readonly summary: SibSummary;
  /** Why an annotation might go unused, noted when its session is read. */
  private readonly unusedReason = new Map<Annotation, string>();

  constructor(start: SibSummaryStart) {
    this.summary = {
      inputs: start.inputs,
      settings: start.settings,
      sessions: { read: 0, trajectories: 0, selected_trajectories: 0 },
      tasks: {
        written: 0,
        by_task: zeroCounts(),
        distinct_questions: zeroCounts(),
        not_applicable: zeroCounts(),
        labelled: zeroCounts(),
        label_ties: 0,
        label_ties_without_binary: 0,
      },
      annotations: null,
      distractors: start.distractors
        ? {
            made: Object.fromEntries(DISTRACTOR_KINDS.map((k) => [k, 0])) as Record<DistractorKind, number>,
            failed: Object.fromEntries(DISTRACTOR_KINDS.map((k) => [k, {}])) as Record<
              DistractorKind,
              Record<string, number>
            >,
            refused: Object.fromEntries(DISTRACTOR_KINDS.map((k) => [k, {}])) as Record<
              DistractorKind,
              Record<string, number>
            >,
            next_product_gold_positions: { A: 0, B: 0, C: 0, D: 0 },
            catalogue_products: start.distractors.catalogueProducts,
            comparison_pool: start.distractors.comparisonPool,
          }
        : null,
      rejects: { count: 0, by_reason: {}, file: null },
      outputs: start.outputs,
    };
  }

  /** Counts a session: its trajectories, the tasks written for the selected ones, unused annotations. */
  addSession(
    session: SibSession,
    selected: readonly Trajectory[],
    written: readonly WrittenTask[],
    annotations: AnnotationIndex | null,
  ): void {
    const s = this.summary;
    s.sessions.read += 1;
    s.sessions.trajectories += countTrajectories(session);
    s.sessions.selected_trajectories += selected.length;
    for (const trajectory of selected)
      for (const task of TASK_NUMBERS)
        if (!taskApplies(task, trajectory.path.length)) s.tasks.not_applicable[`T${task}`] += 1;
    const distinct = new Set<string>();
    for (const w of written) this.countTask(w, distinct);
    if (annotations) this.explainUnused(annotations, session, selected);
  }

  /** Counts a trajectory's distractor items and the items it could not make. */
  addItems(outcome: DistractorOutcome): void {
    const d = this.summary.distractors!;
    for (const item of outcome.items) {
      d.made[item.kind] += 1;
      if (item.kind === 'next-product-choice') d.next_product_gold_positions[item.answer]! += 1;
    }
    for (const f of outcome.failures) {
      const byReason = d.failed[f.kind];
      byReason[f.reason] = (byReason[f.reason] ?? 0) + 1;
    }
    for (const r of outcome.refusals) {
      const byReason = d.refused[r.kind];
      byReason[r.reason] = (byReason[r.reason] ?? 0) + r.count;
    }
  }

  /** The summary, once every session is counted. */
  finish(annotations: AnnotationIndex | null, rejects: RejectsSink, rejectsFile: string): SibSummary {
    const s = this.summary;
    if (annotations) {
      const unused = annotations.unused();
      const byReason: Record<string, number> = {};
      for (const a of unused) {
        const reason = this.unusedReason.get(a) ?? 'no session with this session_id was assembled';
        byReason[reason] = (byReason[reason] ?? 0) + 1;
      }
      s.annotations = {
        read: annotations.size,
        used: annotations.size - unused.length,
        unused: unused.length,
        unused_by_reason: byReason,
        unused_examples: unused
          .slice(0, 20)
          .map((a) => `${a.file}:${a.line} (${this.unusedReason.get(a) ?? 'unknown session'})`),
      };
    }
    s.rejects = {
      count: rejects.count,
      by_reason: Object.fromEntries([...rejects.byReason.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      file: rejects.count > 0 ? rejectsFile : null,
    };
    return s;
  }

  private countTask(w: WrittenTask, distinct: Set<string>): void {
    const tasks = this.summary.tasks;
    const key = `T${w.task}` as const;
    tasks.written += 1;
    tasks.by_task[key] += 1;
    if (!distinct.has(w.questionKey)) {
      distinct.add(w.questionKey);
      tasks.distinct_questions[key] += 1;
    }
    if (w.label) {
      tasks.labelled[key] += 1;
      if (w.label.tied) {
        tasks.label_ties += 1;
        if (w.label.binary === null) tasks.label_ties_without_binary += 1;
      }
    }
  }

  /** Why a session's annotations might go unused (recorded before we know whether they were). */
  private explainUnused(annotations: AnnotationIndex, session: SibSession, selected: readonly Trajectory[]): void {
    const nodes = new Map(session.nodes.map((n) => [n.id, n]));
    const selectedLeaves = new Set(selected.map((t) => trajectoryLeaf(t).id));
    for (const a of annotations.forSession(session.sessionId)) {
      const node = nodes.get(a.leafId);
      if (!node) this.unusedReason.set(a, 'leaf_id is not a node of the session tree');
      else if (session.children.has(a.leafId))
        this.unusedReason.set(a, 'leaf_id is not a leaf (the node has children)');
      else if (!selectedLeaves.has(a.leafId))
        this.unusedReason.set(a, 'trajectory not among the sampled ones (--per-session)');
      else if (!taskApplies(a.task, node.step)) this.unusedReason.set(a, 'task undefined at step 1');
    }
  }
}
