// The queue runs the Sentence-BERT model only (README, "Many machines"): any other encoder with a
// queue is refused before any connection, naming the encoder.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { openEncoder } from '../workers/open-encoder.js';

describe('--queue and the encoder', () => {
  // Port 1 on localhost: nothing listens there, so a connection attempt would fail differently.
  const queue = { url: 'redis://127.0.0.1:1', lostAfterMs: 100, progress: false };
  it.each(['glove-100d', 'offline-hashing-v1'] as const)('%s with a queue is refused, naming it', async (encoder) => {
    const refused = await openEncoder({ encoder }, { kind: 'queue', queue }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(`queue runs the Sentence-BERT model only, not the ${encoder} encoder`);
  });
});
