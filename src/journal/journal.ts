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
    private readonly apply: (event: JournalEvent) => void,
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
    const envelope: EventEnvelope = {
      v: 1,
      seq: this.head.seq + 1,
      type,
      ts: this.clock.now(),
      prev: this.head.eventId,
      by,
      data,
    };
    const body = canonicalJson(envelope);
    const event: JournalEvent = { ...envelope, event_id: sha256Hex(body), sig: this.key.sign(body) };
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
    this.apply(event);
    this.viewChanges.applied(type);
    return event;
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
