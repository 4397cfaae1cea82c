import type Database from 'better-sqlite3';
import { digestQueries } from './projections.js';

/**
 * The shape of the view tables. Views are projections, so a build that changes them needs
 * no migration: on start, a home whose views were made by another shape drops them and
 * replays the journal (the only truth) into the new ones.
 */
export const VIEW_SCHEMA_VERSION = 23;

export function viewsAreCurrent(db: Database.Database): boolean {
  return db.pragma('user_version', { simple: true }) === VIEW_SCHEMA_VERSION;
}

/**
 * Indexes derived from the views after each commit (not replayed, put right at start): a
 * replay may give rows other rowids, so they are dropped with the views and written again.
 */
const DERIVED_FROM_VIEWS = ['held.held_fts'];

export function dropViews(db: Database.Database): void {
  for (const table of [...Object.keys(digestQueries('main')).map((t) => `main.${t}`), ...DERIVED_FROM_VIEWS]) db.exec(`DROP TABLE IF EXISTS ${table}`);
}

export function markViewsCurrent(db: Database.Database): void {
  db.pragma(`user_version = ${VIEW_SCHEMA_VERSION}`);
}
