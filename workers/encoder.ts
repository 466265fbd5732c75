// The opened encoder that every library run takes: made once by openEncoder(spec, execution)
// (open-encoder.ts), handed to as many runs as the caller likes, closed by the caller. It encodes
// through its sentence runner and says what it is (name, dim, fingerprint, describe()) as that runner
// does; it keeps the spec and the execution it was opened with, so that a run reads the batch size
// or the worker count from one place. A queue execution also owns the node-context runner of
// `embed` (contextRunners): the runs ask for it through that typed field, never by probing the runner.
// Why runs take an opened encoder rather than a spec and an execution to open themselves: opening
// costs seconds (a model, a pool of sessions, a queue connection), and a caller that runs several
// stages (the demo: the pipeline, its unfiltered twin, SessionIntentBench, the solver) then opens
// one, and every command opens it the same way (openEncoder(spec, execution)) after checking its
// paths. Runs that need only encode() and a name type their field as that narrower interface
// (SentenceEncoder), which an Encoder is, so that tests can hand them a small fake; runEmbed and
// runPipeline, which read the spec's batch size, the execution's worker count and the queue's
// node-context runner, take the Encoder itself.
import type { DescribedEncoder, EncoderDescription } from '../embeddings/encoder-description.js';
import type { GloveSentenceEncoder } from '../embeddings/glove-encoder.js';
import type { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import type { OnnxEncodeOptions, OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import type { PooledSentenceEncoder } from './pooled-encoder.js';
import type { QueuedContextRunner } from './queue/queued-context.js';
import type { QueuedSentenceEncoder } from './queue/queued-encoder.js';
import type { QueuedBaselineEncoder } from './queue/queued-baseline.js';
import type { EncoderExecution, EncoderSpec } from './encoder-spec.js';

/** The sentence runners an execution may open. */
export type AnyEncoder =
  | OnnxSentenceEncoder
  | GloveSentenceEncoder
  | HashingSentenceEncoder
  | PooledSentenceEncoder
  | QueuedSentenceEncoder
  | QueuedBaselineEncoder;

/**
 * A queue execution's node-context runners: `embed`'s context units as jobs for the workers that
 * hold the graph `graph` (graph/graph-identity.ts). One per graph, closed with the encoder.
 */
export interface ContextRunnerSource {
  open(graph: string): Promise<QueuedContextRunner>;
}

export class Encoder implements DescribedEncoder {
  private closed?: Promise<void>;

  constructor(
    /** The model it was opened with. */
    readonly spec: EncoderSpec,
    /** Where it runs. */
    readonly execution: EncoderExecution,
    /** What runs the sentence batches: an ONNX session, a thread pool, a queue client, or a baseline. */
    readonly sentences: AnyEncoder,
    /** Milliseconds that opening took (model resolution, sessions, workers, queue connection). */
    readonly openMs: number,
    /** Set by a queue execution, whose workers run node-context units too; else undefined (they run here). */
    readonly contextRunners?: ContextRunnerSource,
  ) {}

  get name(): string {
    return this.sentences.name;
  }
  get dim(): number {
    return this.sentences.dim;
  }
  get provider(): string {
    return this.sentences.provider;
  }
  get fingerprint(): string {
    return this.sentences.fingerprint;
  }
  get sentenceBert(): boolean {
    return this.sentences.sentenceBert;
  }
  get dtype(): string {
    return this.sentences.dtype;
  }

  describe(): EncoderDescription {
    return this.sentences.describe();
  }

  encode(sentences: readonly string[], options?: OnnxEncodeOptions): Promise<Float32Array> {
    return this.sentences.encode(sentences, options);
  }

  /** Closes the runners (and the queue's node-context runners); a second call waits for the first. */
  close(): Promise<void> {
    this.closed ??= this.sentences.close();
    return this.closed;
  }
}
