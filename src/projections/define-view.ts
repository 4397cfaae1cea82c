import type Database from 'better-sqlite3';
import type { JournalEvent } from '../forms/event.js';
import { typesFoldedBy, type FoldedBy, type JournalEventOf, type ViewName } from '../journal/catalogue/catalogue.js';
import type { ViewChanges } from '../journal/view-changes.js';

/**
 * The one view that folds every event, whatever its type (the journal's Merkle tree,
 * log-tree.ts): no declaration of the catalogue names it, so its name is not a `ViewName`.
 */
export const LOG_TREE = 'log-tree';

/** A view's name: one the catalogue's declarations name in `folds`, or the log tree. */
export type DeclaredViewName = ViewName | typeof LOG_TREE;

/** What the log tree handles: every event, of a type the catalogue declares or not. */
export const EVERY_EVENT = 'every event';

/** The events view V folds: those the catalogue names it in, typed by their declarations. */
export type FoldedEvent<V extends DeclaredViewName> = V extends ViewName ? JournalEventOf<FoldedBy<V>> : JournalEvent;

/** The types view V folds, as `typesFoldedBy` reads them from the catalogue. */
export type Handles<V extends DeclaredViewName> = V extends ViewName ? readonly FoldedBy<V>[] : typeof EVERY_EVENT;

/** A view's fold, made once per schema (`main` live, a scratch schema in a rebuild). */
export interface ViewReducer<V extends DeclaredViewName> {
  /** `next`: the event appended right after this one in the same journal call, when known (live only). */
  apply(event: FoldedEvent<V>, next?: JournalEventOf): void;
}

/** What a read model is made over: the connection it prepares its statements on, and the journal's record of which views changed (for memos). */
export interface ReadModelSource {
  readonly db: Database.Database;
  readonly viewChanges: ViewChanges;
}

/** Makes one read model of the store (`store.<name>`), with its prepared statements. */
export type ReadModelFactory = (source: ReadModelSource) => object;

/** Read models by the name the store gives them. */
export type ReadModelFactories = Readonly<Record<string, ReadModelFactory>>;

/** What a view's author writes (docs/architecture.md, "Adding a view"). */
export interface ViewFields<V extends DeclaredViewName, R extends ReadModelFactories, F extends ViewReducer<V>> {
  readonly name: V;
  /** The DDL of its tables (and their indexes) in `schema`. */
  readonly tables: (schema: string) => string;
  /**
   * Per table it owns, the query the digest hashes: every row, in a fixed order. Its keys are
   * the view's tables: the rebuild compares them, a new view shape drops them.
   */
  readonly digest: (schema: string) => Readonly<Record<string, string>>;
  /** Its fold, prepared on `schema`. */
  readonly reducer: (db: Database.Database, schema: string) => F;
  /** Its read models, by the name the store gives them (`{}` when none is the store's). */
  readonly reads: R;
}

/** A declared view: what its author wrote, and the event types it handles, read from the catalogue. */
export interface View<V extends DeclaredViewName = DeclaredViewName, R extends ReadModelFactories = ReadModelFactories, F extends ViewReducer<V> = ViewReducer<V>>
  extends ViewFields<V, R, F> {
  readonly handles: Handles<V>;
}

/**
 * Declares a view once: its tables and their digest, its reducer, the store's read models
 * of it. The types it handles are never written here but read from the catalogue (the
 * declarations naming it in `folds`), and the reducer is typed by them: its `apply` takes
 * exactly those events. src/projections/view-list.ts lists every declaration; the tables,
 * the digest, the rebuild and the store's members all come from that list.
 */
export function defineView<const V extends DeclaredViewName, const R extends ReadModelFactories, F extends ViewReducer<V>>(
  view: ViewFields<V, R, F>,
): View<V, R, F> {
  const handles = (view.name === LOG_TREE ? EVERY_EVENT : typesFoldedBy(view.name as ViewName)) as Handles<V>;
  return Object.freeze({ ...view, handles });
}
