import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { JournalEvent } from '../forms/event.js';
import type { AppendFollower } from '../journal/followers.js';
import type { HeldRowsFollower } from './artifacts.js';
import { EVERY_EVENT } from './define-view.js';
import { VIEW_LIST, type ListedView } from './view-list.js';

/** A reducer as the dispatch holds it: it is handed only the types its view handles (`byType`). */
interface Folding {
  apply(event: JournalEvent, next?: JournalEvent): void;
}

/** Each listed view's reducer, by the view's name. */
type Reducers = { readonly [V in ListedView as V['name']]: ReturnType<V['reducer']> };

/** Every view's tables, in `schema`. */
export function createProjectionTables(db: Database.Database, schema: string): void {
  db.exec(VIEW_LIST.map((view) => view.tables(schema)).join('\n'));
}

/** Per view table, the query its digest hashes (its keys: every view table). */
export function digestQueries(schema: string): Record<string, string> {
  return Object.assign({}, ...VIEW_LIST.map((view) => view.digest(schema))) as Record<string, string>;
}

/**
 * Every view of the gate, folded from the journal. The same class runs live (schema
 * `main`, inside the append transaction) and in rebuild (a fresh attached schema).
 * Events of types no view reads (the genesis event, for one) reach only the log tree.
 */
export class Projections implements AppendFollower {
  private readonly byType = new Map<string, Folding[]>();
  /** The views that fold every event, whatever its type (the journal's Merkle tree). */
  private readonly everyEvent: Folding[] = [];
  private readonly reducers: Reducers;

  constructor(db: Database.Database, schema: string) {
    createProjectionTables(db, schema);
    const reducers: Record<string, Folding> = {};
    for (const view of VIEW_LIST) {
      const reducer: Folding = (reducers[view.name] = view.reducer(db, schema));
      if (view.handles === EVERY_EVENT) this.everyEvent.push(reducer);
      else for (const type of view.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), reducer]);
    }
    this.reducers = reducers as Reducers;
  }

  /** The live views tell `follower` (the held index, written after each commit) of rows entering or leaving L1_SCANNED. */
  followHeldRows(follower: HeldRowsFollower): void {
    this.reducers.artifacts.heldRows.push(follower);
  }

  /**
   * Several views may fold one event (an ingest both adds a row and brings its work area into
   * being), in the list's order (src/projections/view-list.ts). `next` lets a view fold two
   * events at once (a replay, which does not give it, folds them one by one into the same views).
   */
  apply(event: JournalEvent, next?: JournalEvent): void {
    for (const reducer of this.everyEvent) reducer.apply(event);
    for (const reducer of this.byType.get(event.type) ?? []) reducer.apply(event, next);
  }
}

/** A digest per view table: sha256 over its rows in a fixed order. */
export function digestTables(db: Database.Database, schema: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [table, sql] of Object.entries(digestQueries(schema))) {
    const hash = createHash('sha256');
    for (const row of db.prepare(sql).raw().iterate() as IterableIterator<unknown[]>) {
      hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
      hash.update('\n');
    }
    out[table] = hash.digest('hex');
  }
  return out;
}
