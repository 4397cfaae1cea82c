import type Database from 'better-sqlite3';
import { canonicalJson, sha256Hex } from '../forms/canonical-json.js';
import type { DeploymentKey } from '../credentials/deployment-key.js';
import type { EventEnvelope, JournalEvent } from '../forms/event.js';
import type { Clock } from '../clock.js';
import { ViewChanges } from './view-changes.js';
import type { SigningThread } from './signing-thread.js';
import type { AppendFollower } from './followers.js';
import type { EventData, EventType, GateEvent, JournalEventOf } from './catalogue/catalogue.js';
import { checkEvent, EVENTS_CHECKED } from './catalogue/event-check.js';

export interface ChainHead {
  seq: number;
  eventId: string | null;
}

/** One event to append: its type and data (as the catalogue declares them), and who caused it. */
export type NewEvent = GateEvent & { by: string | null };

/** One journal call's events, sealed and folded into the views, their rows waiting for the signing thread's signatures. */
interface Deferred {
  /** The signing thread's ticket; null when no thread was ready (signed here when inserted). */
  ticket: number | null;
  sealed: Array<{ event: JournalEvent; body: string }>;
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
  /** Inside `signingLater`: appends hand their bodies to the signing thread and their rows wait in `deferred`. */
  private deferring = false;
  /** Rows of this transaction not yet inserted, in seq order (see signingLater). */
  private deferred: Deferred[] = [];

  constructor(
    private readonly db: Database.Database,
    private readonly key: DeploymentKey,
    private readonly clock: Clock,
    /** The views, folding each event inside the write's transaction. */
    private readonly views: AppendFollower,
    /** Signs events off the main thread for writes that allow it (signingLater); without it every event is signed here. */
    private readonly signer?: SigningThread,
  ) {
    // Positional parameters: better-sqlite3 binds named ones by a property lookup each (~1 µs a row more).
    this.insert = db.prepare(
      `INSERT INTO journal (seq, event_id, prev, ts, type, by, artifact_id, space, workarea, body, sig)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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

  /**
   * Restores the in-memory head after a rolled-back savepoint or transaction; the deferred
   * rows of the rolled-back events go with them (their views' changes were rolled back).
   */
  resetHead(head: ChainHead = this.readHead()): void {
    this.head = head;
    this.viewChanges.rolledBack();
    while (this.deferred.length > 0 && this.deferred.at(-1)!.sealed[0]!.event.seq > head.seq) {
      const { ticket } = this.deferred.pop()!;
      if (ticket !== null) this.signer?.abandon(ticket);
    }
  }

  /**
   * Runs `work` (inside the writer's transaction) with its events signed on the signing
   * thread: each event is sealed here (seq, prev, canonical body, event id; the chain needs
   * no signature) and folded into the views at once, and its journal row is inserted by
   * `writeDeferred`, with the signature the thread made meanwhile, before any other work
   * runs and before COMMIT. Only for work that reads no journal row of its own (a deferred
   * row is not in the table yet); the views it reads are current.
   */
  signingLater<T>(work: () => T): T {
    this.deferring = true;
    try {
      return work();
    } finally {
      this.deferring = false;
    }
  }

  /**
   * Inserts every deferred row, in seq order, with its signature. Rows whose signatures the
   * thread has sent are inserted from the front while the main thread signs the others
   * itself from the back: the thread works front to back, so the two meet, and the commit
   * never waits for the thread (a wait for the batch's last bodies cost the main thread more
   * time than signing them).
   */
  writeDeferred(): void {
    if (this.deferred.length === 0) return;
    const rows = this.deferred;
    this.deferred = [];
    const signer = this.signer!;
    let front = 0;
    let back = rows.length;
    while (front < back) {
      const { ticket, sealed } = rows[front]!;
      const sigs = signer.answer(ticket);
      if (sigs !== undefined) {
        sealed.forEach((s, i) => (s.event.sig = sigs[i]!));
        this.insertRows(sealed);
        front += 1;
      } else {
        back -= 1;
        const last = rows[back]!;
        const here = signer.signHere(last.ticket, last.sealed.map((s) => s.body));
        last.sealed.forEach((s, i) => (s.event.sig = here[i]!));
      }
    }
    for (const { sealed } of rows.slice(back)) this.insertRows(sealed);
  }

  private insertRows(sealed: Deferred['sealed']): void {
    for (const s of sealed) this.insertRow(s.event, s.body);
  }

  /** Appends one event of a declared type with the data that type carries (src/journal/catalogue/). */
  append<T extends EventType>(type: T, by: string | null, data: EventData<T>): JournalEventOf<T> {
    return this.appendAll([{ type, by, data } as NewEvent & { type: T }])[0]!;
  }

  /**
   * Appends events one after another, exactly as that many appends would, except that each
   * is folded into the views knowing the event that follows it (a row's ingest and its scan
   * become one row written once; see ArtifactReducer).
   */
  appendAll<E extends NewEvent>(entries: readonly E[]): JournalEventOf<E['type']>[] {
    if (EVENTS_CHECKED) for (const { type, data } of entries) checkEvent(type, data);
    // Each sealed event is an entry as given, with its place in the chain: its data is the entry's.
    return this.seal(entries) as JournalEventOf<E['type']>[];
  }

  /**
   * Appends an event outside the catalogue, its data unchecked: one an older (or a later)
   * build wrote, as a test reproduces a journal it did not write. No code of src/ calls it
   * (test/journal/event-catalogue.test.ts holds that), so every event this build writes is
   * one `append` typed and the tests checked.
   */
  appendForeign(type: string, by: string | null, data: Record<string, unknown>): JournalEvent {
    return this.seal([{ type, by, data }])[0]!;
  }

  private seal(entries: ReadonlyArray<{ type: string; by: string | null; data: Record<string, unknown> }>): JournalEvent[] {
    const sealed: Array<{ event: JournalEvent; body: string }> = [];
    let head = this.head;
    for (const { type, by, data } of entries) {
      const envelope: EventEnvelope = { v: 1, seq: head.seq + 1, type, ts: this.clock.now(), prev: head.eventId, by, data };
      const body = canonicalJson(envelope);
      // The signature is filled below: here, or by writeDeferred before the row is inserted.
      const event: JournalEvent = { ...envelope, event_id: sha256Hex(body), sig: '' };
      sealed.push({ event, body });
      head = { seq: event.seq, eventId: event.event_id };
    }
    const deferring = this.deferring && this.signer !== undefined;
    if (deferring) {
      // Null when no thread is ready: writeDeferred then signs these here, still in seq order.
      this.deferred.push({ ticket: this.signer!.ask(sealed.map((s) => s.body)), sealed });
    } else {
      // Rows go in seq order (the writer has already written any deferred ones; this keeps it so).
      this.writeDeferred();
      for (const s of sealed) s.event.sig = this.key.sign(s.body);
    }
    sealed.forEach(({ event, body }, i) => this.record(event, body, sealed[i + 1]?.event, !deferring));
    return sealed.map((s) => s.event);
  }

  private record(event: JournalEvent, body: string, next: JournalEvent | undefined, insertNow: boolean): void {
    if (insertNow) this.insertRow(event, body);
    this.head = { seq: event.seq, eventId: event.event_id };
    this.viewChanges.applied(event.type);
    this.views.apply(event, next);
    this.viewChanges.applied(event.type);
  }

  private insertRow(event: JournalEvent, body: string): void {
    const { data } = event;
    this.insert.run(
      event.seq,
      event.event_id,
      event.prev,
      event.ts,
      event.type,
      event.by,
      pick(data, 'artifact_id'),
      pick(data, 'space'),
      pick(data, 'workarea'),
      body,
      event.sig,
    );
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
