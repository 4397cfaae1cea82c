import { Piscina } from 'piscina';
import { quarantineFull } from '../src/gate-error.js';

export interface BoundedPoolOptions {
  threads: number;
  /** Most tasks waiting for or in the pool; past it the caller is refused -32006. */
  queueMax: number;
  retryAfterMs: number;
}

/**
 * A Piscina pool for large units of untrusted bytes (an archive, an image): one task per
 * unit, a bounded number waiting, and a refusal (-32006 with retry_after_ms) rather than
 * an unbounded queue when callers outrun it.
 */
export class BoundedPool {
  private readonly pool: Piscina;
  private waiting = 0;

  constructor(
    entry: URL,
    private readonly options: BoundedPoolOptions,
  ) {
    this.pool = new Piscina({
      filename: entry.href,
      // Started on first use and stopped when idle: a gate that never sees an archive or an
      // image carries no thread (nor sharp's libraries) for them.
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: 30_000,
    });
  }

  async run<R>(task: unknown, transferList: ArrayBuffer[]): Promise<R> {
    if (this.waiting >= this.options.queueMax) throw quarantineFull(this.options.retryAfterMs);
    this.waiting++;
    try {
      return (await this.pool.run(task, { transferList })) as R;
    } finally {
      this.waiting--;
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** A copy of `bytes` in a buffer of its own, which can be transferred without detaching anything else. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
