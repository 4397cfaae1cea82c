import type Database from 'better-sqlite3';
import type { Journal } from '../journal/journal.js';
import type { JournalWriter } from '../journal/group-commit.js';
import type { CursorSealer } from '../journal/cursor.js';
import type { WalCheckpointer } from '../journal/wal-checkpointer.js';
import { SPACE_EVENTS } from '../projections/spaces.js';
import { rebuildAndCompare, type RebuildReport } from '../projections/rebuild.js';
import { reconcileSurfaces, type ReconcileReport } from '../projections/reconcile.js';
import { makeReadModels, type ReadModels } from '../projections/read-models.js';

/**
 * The store part: the one way to the journal and its views. Writes go through `writer`
 * (a journal write, grouped into commits) and `journal` (the appends inside one); every
 * read model of the views is a member here (`store.bans`, `store.artifacts`, …), made once
 * with its prepared statements, each as its view declares it (src/projections/read-models.ts:
 * each listed view's `reads`, and the reads across views), so a new view adds its members
 * with no edit here. The database handle stays inside: no verb, surface or layer above
 * reaches SQL but through a read model (docs/architecture.md).
 */
// The class takes its read-model members from the list's type (an interface merged with the
// class: a class cannot declare a mapped type's members itself); the constructor makes them all.
export interface Store extends ReadModels {}
export class Store {
  /** For the whole-database checks (rebuildViews, reconcileSurfaces), which attach a scratch schema beside the views. */
  private readonly db: Database.Database;
  /** The space names, read again only once a space event is applied (requireSpace asks on every ingest). */
  private readonly spaceList: () => readonly string[];

  constructor(
    db: Database.Database,
    readonly journal: Journal,
    readonly writer: JournalWriter,
    /** Seals the cursors of paged answers to the identity they were given to. */
    readonly cursors: CursorSealer,
    private readonly checkpointer: WalCheckpointer,
  ) {
    Object.assign(this, makeReadModels({ db, viewChanges: journal.viewChanges }));
    this.db = db;
    const spaces = this.spaces;
    this.spaceList = journal.viewChanges.memo(SPACE_EVENTS, () => spaces.names());
  }

  /** Empties the WAL now (gv.erase: erased bytes leave the files); false while a reader holds it. */
  truncateWal(): boolean {
    return this.checkpointer.truncate();
  }

  spaceNames(): string[] {
    return [...this.spaceList()];
  }

  /**
   * Replays the journal into a scratch database at `scratchPath` and compares every view with
   * the live one (gv.rebuild); flush the writer first so the journal is settled.
   */
  rebuildViews(scratchPath: string): RebuildReport {
    return rebuildAndCompare(this.db, scratchPath);
  }

  /**
   * Replays the journal into a scratch database at `scratchPath` and puts each consumer
   * surface (recall index, hides, pins, tips, ranks) right against it (gv.reconcile).
   */
  reconcileSurfaces(scratchPath: string): ReconcileReport {
    return reconcileSurfaces(this.db, scratchPath);
  }
}
