import type Database from 'better-sqlite3';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import type { DeploymentKey } from './deployment-key.js';
import type { EventEnvelope, JournalEvent } from './event.js';
import type { Clock } from '../clock.js';
import { ViewChanges } from './view-changes.js';

export interface ChainHead {
  seq: number;
  eventId: string | null;
}

/** One event to append: its type, who caused it, and its data. */
export interface NewEvent {
  type: string;
  by: string | null;
  data: Record<string, unknown>;
}

/** Columns copied out of the event data so reads can filter without parsing bodies. */
const pick = (data: Record<string, unknown>, key: string): string | null =>
  typeof data[key] === 'string' ? (data[key] as string) : null;

/**
 * Appends signed, chained events. It must be called inside a SQLite transaction (the
 * JournalWriter opens one): the event and its projection land together or not at all.
 */
export class Journal {
  private head: ChainHead;
  /** What the views have folded since start, for reads kept until the views change. */
  readonly viewChanges = new ViewChanges();
  private readonly insert: Database.Statement;
  private readonly insertBlob: Database.Statement;
  private readonly deleteBlob: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly key: DeploymentKey,
    private readonly clock: Clock,
    /** Folds an event into the views; `next` is the event appended right after it in the same call, when there is one. */
    private readonly apply: (event: JournalEvent, next?: JournalEvent) => void,
  ) {
    this.insert = db.prepare(
      `INSERT INTO journal (seq, event_id, prev, ts, type, by, artifact_id, space, workarea, body, sig)
       VALUES (@seq, @event_id, @prev, @ts, @type, @by, @artifact_id, @space, @workarea, @body, @sig)`,
    );
    this.insertBlob = db.prepare('INSERT OR IGNORE INTO blobs (hash, bytes) VALUES (?, ?)');
    this.deleteBlob = db.prepare('DELETE FROM blobs WHERE hash = ?');
    this.head = this.readHead();
  }

  readHead(): ChainHead {
    const row = this.db.prepare('SELECT seq, event_id FROM journal ORDER BY seq DESC LIMIT 1').get() as
      | { seq: number; event_id: string }
      | undefined;
    return row ? { seq: row.seq, eventId: row.event_id } : { seq: 0, eventId: null };
  }

  get chainHead(): ChainHead {
    return this.head;
  }

  /** Restores the in-memory head after a rolled-back savepoint or transaction. */
  resetHead(head: ChainHead = this.readHead()): void {
    this.head = head;
    this.viewChanges.rolledBack();
  }

  append(type: string, by: string | null, data: Record<string, unknown>): JournalEvent {
    return this.appendAll([{ type, by, data }])[0]!;
  }

  /**
   * Appends events one after another, exactly as that many appends would, except that each
   * is folded into the views knowing the event that follows it (a row's ingest and its scan
   * become one row written once; see ArtifactReducer).
   */
  appendAll(entries: readonly NewEvent[]): JournalEvent[] {
    const sealed: Array<{ event: JournalEvent; body: string }> = [];
    let head = this.head;
    for (const { type, by, data } of entries) {
      const envelope: EventEnvelope = { v: 1, seq: head.seq + 1, type, ts: this.clock.now(), prev: head.eventId, by, data };
      const body = canonicalJson(envelope);
      const event: JournalEvent = { ...envelope, event_id: sha256Hex(body), sig: this.key.sign(body) };
      sealed.push({ event, body });
      head = { seq: event.seq, eventId: event.event_id };
    }
    sealed.forEach(({ event, body }, i) => this.record(event, body, sealed[i + 1]?.event));
    return sealed.map((s) => s.event);
  }

  private record(event: JournalEvent, body: string, next: JournalEvent | undefined): void {
    const { type, by, data } = event;
    this.insert.run({
      seq: event.seq,
      event_id: event.event_id,
      prev: event.prev,
      ts: event.ts,
      type,
      by,
      artifact_id: pick(data, 'artifact_id'),
      space: pick(data, 'space'),
      workarea: pick(data, 'workarea'),
      body,
      sig: event.sig,
    });
    this.head = { seq: event.seq, eventId: event.event_id };
    this.viewChanges.applied(type);
    this.apply(event, next);
    this.viewChanges.applied(type);
  }

  /** Content-addressed bytes referenced from events by hash; erasure can drop them without breaking the chain. */
  putBlob(hash: string, bytes: Uint8Array): void {
    this.insertBlob.run(hash, bytes);
  }

  /** An erasure's: the bytes leave the store; events name them by hash only, so the chain still verifies. */
  dropBlob(hash: string): void {
    this.deleteBlob.run(hash);
  }
}
