import type { Piscina } from 'piscina';
import type { TextCheck } from '../../workers/submission-check/submission-check.js';
import { RoundTripBatch } from './round-trip-batch.js';
import type { SubmissionCheckTask } from '../../workers/submission-check/pool-entry.js';
import { newPool } from '../threads.js';

type Item = SubmissionCheckTask['items'][number];

/**
 * The check stage of PUT /submissions: bodies go to a Piscina pool of [org].check_threads
 * workers in batches (what arrives while a batch is out goes together next, one batch per
 * thread in flight). The pool starts on the first check, so the org's commands that serve
 * nothing start no thread.
 */
export class SubmissionChecks {
  private pool: Piscina | null = null;
  private readonly batch: RoundTripBatch<Item, TextCheck>;

  constructor(private readonly threads: number) {
    this.batch = new RoundTripBatch((items) => this.started().run({ items } satisfies SubmissionCheckTask) as Promise<TextCheck[]>, 64, threads);
  }

  check(pathId: string, member: string, body: Uint8Array): Promise<TextCheck> {
    return this.batch.submit({ pathId, member, body });
  }

  private started(): Piscina {
    this.pool ??= newPool({
      entry: new URL('../../workers/submission-check/pool-entry.js', import.meta.url),
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Infinity,
    });
    return this.pool;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
