import type { Caller } from '../access/caller.js';
import { readBudget } from '../gate-error.js';
import type { ReadSnapshots, Snapshot } from '../store/read-snapshots.js';
import type { Store } from '../store/store.js';
import { FairQueue } from './fair-queue.js';
import type { ReadBudget } from './read-budget.js';
import { Turns } from './turns.js';

/** What a long read works with between its chunks. */
export interface LongRead {
  /** The read models over one state of the views, held for the whole read. */
  readonly store: Store;
  /** The journal's last seq in that state: a walk of the journal stops there. */
  readonly headSeq: number;
  /**
   * Ends the chunk that ran (its time counted in the caller's budget) and waits for the
   * next turn; refused -32006 read_budget once the caller's budget is spent.
   */
  next(): Promise<void>;
  /** Whether the caller's budget is spent, this chunk counted: a read that can answer in part stops here rather than call next(). */
  spent(): boolean;
  /** Main-thread ms this read has taken so far, the running chunk counted. */
  tookMs(): number;
}

/**
 * The long-reads part: reads that walk the journal or a view (gv.events, gv.graph,
 * gv.inventory, gv.pending, gv.lineage) run in bounded chunks, each on its turn (turns.ts),
 * over a snapshot of the views (src/store/read-snapshots.ts), and each chunk's main-thread
 * time is counted against the caller's identity (read-budget.ts). See "Long reads and their
 * budget" in docs/spec-choices.md.
 */
export class LongReads {
  private readonly turns = new Turns();
  /** Reads waiting for a snapshot while every connection is held, served in turn by identity. */
  private readonly waiting = new FairQueue<{ resolve: (s: Snapshot) => void; reject: (e: Error) => void }>();
  private running = 0;
  private idle: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly snapshots: ReadSnapshots,
    private readonly budget: ReadBudget,
  ) {}

  /** Long reads running now (holding a snapshot). */
  get inProgress(): number {
    return this.running;
  }

  /**
   * Runs `read` as a long read of the caller: refused -32006 read_budget (with
   * retry_after_ms) when the caller has spent its budget; otherwise it waits for a snapshot
   * and a turn, and its chunks run one turn each until it answers.
   */
  async run<T>(caller: Pick<Caller, 'identity'>, read: (r: LongRead) => T | Promise<T>): Promise<T> {
    const identity = caller.identity;
    const wait = this.budget.retryAfterMs(identity);
    if (wait !== null) throw readBudget(wait);
    const snapshot = await this.snapshotFor(identity);
    this.running += 1;
    let started = 0;
    let took = 0;
    const charge = () => {
      const now = performance.now();
      this.budget.charge(identity, now - started);
      took += now - started;
      started = now;
    };
    try {
      await this.turns.take(identity);
      started = performance.now();
      return await read({
        store: snapshot.store,
        headSeq: snapshot.headSeq,
        next: async () => {
          charge();
          const after = this.budget.retryAfterMs(identity);
          if (after !== null) throw readBudget(after);
          await this.turns.take(identity);
          started = performance.now();
        },
        spent: () => {
          charge();
          return this.budget.retryAfterMs(identity) !== null;
        },
        tookMs: () => took + performance.now() - started,
      });
    } finally {
      if (started > 0) charge();
      snapshot.release();
      this.running -= 1;
      this.handOn();
    }
  }

  /** Refuses reads not yet running, and resolves once those running have answered. */
  close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.drain()) w.reject(new Error('the gate is closing'));
    if (this.running === 0) {
      this.snapshots.close();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.idle = () => {
        this.snapshots.close();
        resolve();
      };
    });
  }

  private snapshotFor(identity: string): Promise<Snapshot> {
    if (this.closed) return Promise.reject(new Error('the gate is closing'));
    const snapshot = this.snapshots.take();
    if (snapshot !== null) return Promise.resolve(snapshot);
    return new Promise((resolve, reject) => this.waiting.push(identity, { resolve, reject }));
  }

  /** A connection was given back: the next waiter, in turn by identity, takes it. */
  private handOn(): void {
    const next = this.waiting.shift();
    if (next !== undefined) {
      try {
        next.resolve(this.snapshots.take()!);
      } catch (error) {
        next.reject(error as Error);
      }
      return;
    }
    if (this.running === 0) this.idle?.();
  }
}
