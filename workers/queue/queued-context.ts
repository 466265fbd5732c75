// The coordinator's side of node-context jobs: a ContextUnitRunner that sends each unit of `embed`'s
// context work to the workers that have the graph, and hands each result back as it arrives. Opened
// by QueuedSentenceEncoder.openContextRunner, on the same Redis and run name as its encode jobs.
import {
  unitNodes,
  type ContextUnit,
  type ContextUnitResult,
  type ContextUnitRunner,
  type ContextUnitSettings,
} from '../../embeddings/context-embedder.js';
import { contextJobId, decodeContextResult, type ContextJob, type ContextJobResult } from './context-job.js';
import type { JobClient } from './job-client.js';
import type { QueueJobsRecord } from '../../embeddings/encoder-description.js';
import type { ModelIdentity } from './job-payloads.js';

/** What the context jobs of a run name besides the unit: the model, the graph and the templates. */
export interface ContextJobIdentity {
  model: ModelIdentity;
  graph: string;
  templates: string;
}

export class QueuedContextRunner implements ContextUnitRunner {
  constructor(
    private readonly client: JobClient<ContextJob, ContextJobResult>,
    private readonly identity: ContextJobIdentity,
    private readonly dim: number,
  ) {}

  /** What the manifest records of the node-context jobs. */
  record(): QueueJobsRecord {
    return this.client.record();
  }

  async run(
    units: readonly ContextUnit[],
    settings: ContextUnitSettings,
    done: (index: number, result: ContextUnitResult) => void,
  ): Promise<void> {
    await this.client.runAll(
      units,
      (unit) => {
        const job: ContextJob = { format: 1, ...this.identity, ...settings, unit };
        return { id: contextJobId(job), data: job };
      },
      (index, result) => decodeContextResult(result, unitNodes(units[index]!).length, this.dim),
      done,
    );
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
