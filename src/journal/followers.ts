import type { JournalEvent } from '../forms/event.js';

/**
 * Who follows the journal, declared: the root subscribes each follower through one of these
 * interfaces (src/gate.ts), so a reader can follow a write from the journal to every table
 * and index it ends in (docs/architecture.md, "A write's path").
 */

/** Folds each event as it is appended, inside the write's transaction: the views (Projections). */
export interface AppendFollower {
  /** `next` is the event appended right after it in the same call, when there is one. */
  apply(event: JournalEvent, next?: JournalEvent): void;
}

/** The journal events one commit made durable: seq in (after, last]. */
export interface CommittedRange {
  after: number;
  last: number;
}

/** Told of each commit after it lands: what is derived beside the answer (vectors, the decision log). */
export interface CommitFollower {
  committed(range: CommittedRange): void;
}

/**
 * A derived index written beside the writer that may hold new writes back while it catches
 * up: while `pressure()` answers a promise, new writes wait for it before they join a batch.
 */
export interface WritePressure {
  pressure(): Promise<void> | undefined;
}
