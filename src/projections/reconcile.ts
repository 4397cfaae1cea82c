import type Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { Projections, digestTables } from './projections.js';
import { replayJournal } from './rebuild.js';

/**
 * The consumer surfaces: the tables readers are served from, beside the rows themselves.
 * Each is re-derived from the journal and put right row by row. Two are derived after the
 * answer, not by a reducer, so a replay does not make them: the vector index (the embed
 * stage checks it) and the held rows' index (`held_index`, put right by HeldTextIndex.verify
 * against the views; gv.reconcile adds its changes to the report).
 */
const SURFACES = [
  // The served rows' recall index.
  { surface: 'recall_index', table: 'recall_fts', key: ['rowid'], fts: true, space: 'space' },
  { surface: 'hides', table: 'hides', key: ['artifact_id', 'audience'], fts: false, space: null },
  { surface: 'pins', table: 'tip_pins', key: ['artifact_id'], fts: false, space: null },
  // A chain's served head (its tip) follows the supersedes relations and the pins.
  { surface: 'tips', table: 'relations', key: ['child', 'parent', 'kind'], fts: false, space: 'space' },
  { surface: 'ranks', table: 'ranks', key: ['artifact_id', 'audience', 'by'], fts: false, space: null },
] as const;

export type Surface = (typeof SURFACES)[number]['surface'] | 'held_index';
export const SURFACE_NAMES: readonly Surface[] = [SURFACES[0].surface, 'held_index', ...SURFACES.slice(1).map((s) => s.surface)];

export interface SurfaceChange {
  added: number;
  removed: number;
}

export interface ReconcileReport {
  /** Rows put right over every surface (a row that differed counts once removed and once added). */
  changed: number;
  /** Per space, per surface: rows added to and removed from the live surface. */
  spaces: Record<string, Record<Surface, SurfaceChange>>;
  /** Views that are not consumer surfaces and differ from the journal replayed (gv.rebuild names them); reconcile leaves them. */
  other_views_differ: string[];
  events: number;
}

type Row = Record<string, unknown>;

/** Every surface of one space, nothing changed. */
export const emptySurfaces = () => Object.fromEntries(SURFACE_NAMES.map((s) => [s, { added: 0, removed: 0 }])) as Record<Surface, SurfaceChange>;

/**
 * Replays the journal into a scratch database attached beside the live one, then makes
 * each consumer surface equal to its replay: rows only live are deleted, rows only
 * replayed are inserted. Synchronous and in one transaction, so no write lands between
 * the replay and the repair; a second call finds nothing to change.
 */
export function reconcileSurfaces(db: Database.Database, scratchPath: string): ReconcileReport {
  rmSync(scratchPath, { force: true });
  db.prepare('ATTACH DATABASE ? AS reconcile').run(scratchPath);
  try {
    const events = replayJournal(db, new Projections(db, 'reconcile'));
    const spaces: ReconcileReport['spaces'] = {};
    const spaceNames = (db.prepare('SELECT name FROM main.spaces ORDER BY name').pluck().all() as string[]);
    for (const name of spaceNames) spaces[name] = emptySurfaces();
    const spaceOfRow = db.prepare('SELECT space FROM main.artifacts WHERE artifact_id = ?').pluck();
    let changed = 0;
    db.transaction(() => {
      for (const s of SURFACES) {
        const columns = s.fts ? 'rowid, *' : '*';
        const differ = (from: string, to: string) =>
          db.prepare(`SELECT ${columns} FROM ${from}.${s.table} EXCEPT SELECT ${columns} FROM ${to}.${s.table}`).all() as Row[];
        const removed = differ('main', 'reconcile');
        const added = differ('reconcile', 'main');
        const where = s.key.map((k) => `${k} = ?`).join(' AND ');
        const remove = db.prepare(`DELETE FROM main.${s.table} WHERE ${where}`);
        for (const row of removed) remove.run(...s.key.map((k) => row[k]));
        for (const row of added) {
          const names = Object.keys(row);
          db.prepare(`INSERT INTO main.${s.table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...names.map((n) => row[n]));
        }
        const count = (rows: Row[], field: keyof SurfaceChange) => {
          for (const row of rows) {
            const space = (s.space === null ? spaceOfRow.get(row['artifact_id']) : row[s.space]) as string | undefined;
            const bucket = (spaces[space ?? '(no space)'] ??= emptySurfaces());
            bucket[s.surface][field] += 1;
            changed += 1;
          }
        };
        count(removed, 'removed');
        count(added, 'added');
      }
    })();
    const surfaceTables = new Set<string>(SURFACES.map((s) => s.table));
    const live = digestTables(db, 'main');
    const replayed = digestTables(db, 'reconcile');
    const other_views_differ = Object.keys(live).filter((t) => !surfaceTables.has(t) && live[t] !== replayed[t]);
    return { changed, spaces, other_views_differ, events };
  } finally {
    db.prepare('DETACH DATABASE reconcile').run();
    rmSync(scratchPath, { force: true });
    rmSync(`${scratchPath}-journal`, { force: true });
  }
}
