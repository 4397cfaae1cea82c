import type Database from 'better-sqlite3';
import { SERVICE_VERSION } from '../version.js';
import { VIEW_SCHEMA_VERSION } from '../projections/view-version.js';

/**
 * The home's format: bumped when the journal's tables, the content store or the home's files
 * change so that an older build would misread them. The views have their own number
 * (VIEW_SCHEMA_VERSION, kept in SQLite's user_version); a build refuses a home either number
 * says is newer than itself (docs/operations.md, "Upgrades").
 *
 * 1: the home record itself (where the home lives, which build last opened it), and the
 *    deployment's key rotations.
 */
export const HOME_FORMAT = 1;

/** Where a home lives: the machine and the path it was placed at, and the placement's own id. */
export interface HomePlace {
  /** A random id given at each placement (creation, the first start that recorded it, a restore, a takeover). */
  instance: string;
  /** The host name, for people; `machine` decides when the host has one. */
  host: string;
  /** /etc/machine-id (systemd, dbus), or null where the host has none (many containers). */
  machine: string | null;
  /** The home's real path (symbolic links resolved). */
  path: string;
  /** The seq of the home-placed event that placed it here. */
  seq: number;
}

export interface HomeRecord {
  format: number | null;
  /** The gate version that last opened the home, null for a home made before the record. */
  writtenBy: string | null;
  /** The view schema of the views in the home (SQLite's user_version; 0 for a new file). */
  viewSchema: number;
  place: HomePlace | null;
}

/**
 * A table of gate.db that is neither journal nor view: the home's own facts. It travels with
 * the database (a backup, a copy), which is the point: a copy knows where its original lived.
 */
const TABLE = 'CREATE TABLE IF NOT EXISTS home_record (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID';

export function readHomeRecord(db: Database.Database): HomeRecord {
  const viewSchema = db.pragma('user_version', { simple: true }) as number;
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'home_record'").get() !== undefined;
  const values = new Map<string, string>(
    exists ? (db.prepare('SELECT key, value FROM home_record').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]) : [],
  );
  const place = values.get('place');
  const format = values.get('format');
  return {
    format: format === undefined ? null : Number(format),
    writtenBy: values.get('written_by') ?? null,
    viewSchema,
    place: place === undefined ? null : (JSON.parse(place) as HomePlace),
  };
}

/** Why this build must not open the home, or null when it may (it then upgrades what is older). */
export function homeTooNew(record: HomeRecord): string | null {
  const format = record.format ?? 0;
  if (format <= HOME_FORMAT && record.viewSchema <= VIEW_SCHEMA_VERSION) return null;
  const needs = [
    format > HOME_FORMAT ? `home format ${format}` : null,
    record.viewSchema > VIEW_SCHEMA_VERSION ? `view schema ${record.viewSchema}` : null,
  ].filter((x) => x !== null);
  return (
    `this home needs a newer gate: it was last opened by gate ${record.writtenBy ?? 'unknown'}, which wrote ${needs.join(' and ')}; ` +
    `this build (gate ${SERVICE_VERSION}) reads home format ${HOME_FORMAT} and view schema ${VIEW_SCHEMA_VERSION} at most. ` +
    'Start that build or a later one, or restore the backup taken before the upgrade (docs/operations.md, "Upgrades")'
  );
}

/** Records this build as the home's newest reader, inside the caller's transaction. */
export function recordBuild(db: Database.Database): void {
  db.exec(TABLE);
  const put = db.prepare('INSERT INTO home_record (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  put.run('format', String(HOME_FORMAT));
  put.run('written_by', SERVICE_VERSION);
}

export function recordPlace(db: Database.Database, place: HomePlace): void {
  db.exec(TABLE);
  db.prepare('INSERT INTO home_record (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run('place', JSON.stringify(place));
}

/** Whether the home has no journal event yet (a new home, or one whose first start never committed). */
export function journalIsEmpty(db: Database.Database): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").get();
  return table === undefined || db.prepare('SELECT 1 FROM journal LIMIT 1').get() === undefined;
}
