import type { Worker } from 'node:worker_threads';
import { newThread } from '../threads.js';
import type { HeldWriteAnswer, HeldWriteRequest, HeldWriterSettings } from '../../workers/held-writer/thread-entry.js';
import type { Log } from '../log.js';
import { stopThread } from '../stop-thread.js';

/** Longest the thread may take to stop (its last batch written, its connection closed) before it is terminated. */
const STOP_MAX_MS = 5_000;

/**
 * The held-text index's writer thread (workers/held-writer/thread-entry.ts): batches of rows
 * whose entries to make what the views say, written on the thread's own connection. Each
 * write resolves once the thread committed it, and rejects when the thread failed it or is
 * gone; a thread that exits is not started again (`available` turns false and the index
 * writes on the main connection, as it did before the thread).
 */
export class HeldWriterThread {
  /** The thread itself (a test stops it to see the index written on the main connection instead). */
  readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private gone: Error | null = null;
  private stopped: Promise<void> | null = null;

  constructor(settings: HeldWriterSettings, log: Log) {
    this.worker = newThread(new URL('../../workers/held-writer/thread-entry.js', import.meta.url), { workerData: settings });
    this.worker.on('message', (m: HeldWriteAnswer) => {
      const waiter = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error === undefined) waiter?.resolve();
      else waiter?.reject(new Error(`the held-text index thread: ${m.error}`));
    });
    this.worker.on('error', (error) => log.error('the held-text index thread failed', error));
    this.worker.on('exit', (code) => {
      this.gone = new Error(`the held-text index thread stopped (exit code ${code})`);
      if (this.stopped === null) log.warn(`${this.gone.message}: the held index is written on the main thread from now on`);
      for (const waiter of this.waiting.values()) waiter.reject(this.gone);
      this.waiting.clear();
    });
    // A gate that is otherwise done must not be kept alive by its index.
    this.worker.unref();
  }

  /** False once the thread is gone (or stopping): writes go to the main connection instead. */
  get available(): boolean {
    return this.gone === null && this.stopped === null;
  }

  /** Has the thread make these rows' entries what the views say when it writes them. */
  write(rowids: number[]): Promise<void> {
    if (!this.available) return Promise.reject(this.gone ?? new Error('the held-text index thread is stopping'));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const request: HeldWriteRequest = { id, rowids };
      this.worker.postMessage(request);
    });
  }

  /** Stops the thread once what it was given is written; the database closes after. */
  close(): Promise<void> {
    this.stopped ??= this.gone !== null ? Promise.resolve() : stopThread(this.worker, STOP_MAX_MS);
    return this.stopped;
  }
}
