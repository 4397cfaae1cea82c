import type Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { eventFromRow, type JournalRow } from '../forms/event.js';
import { Projections, digestTables } from './projections.js';
import { createHash } from 'node:crypto';

export interface RebuildReport {
  equal: boolean;
  events: number;
  live_digest: string;
  rebuilt_digest: string;
  tables: Record<string, { live: string; rebuilt: string; equal: boolean }>;
  ms: number;
}

const combined = (tables: Record<string, string>) =>
  createHash('sha256').update(JSON.stringify(Object.entries(tables).sort())).digest('hex');

/** Folds every journal event, in order, into the given projections; returns how many. */
export function replayJournal(db: Database.Database, projections: Projections): number {
  let events = 0;
  // Chunks, not an open iterator: better-sqlite3 refuses writes while a read cursor is open.
  const chunk = db.prepare('SELECT * FROM main.journal WHERE seq > ? ORDER BY seq LIMIT 2000');
  db.transaction(() => {
    for (let after = 0; ; ) {
      const rows = chunk.all(after) as JournalRow[];
      if (rows.length === 0) break;
      for (const row of rows) projections.apply(eventFromRow(row));
      events += rows.length;
      after = rows[rows.length - 1]!.seq;
    }
  })();
  return events;
}

/**
 * Replays the whole journal into fresh tables in a scratch database attached beside the
 * live one, with the same reducers, and compares every table's digest with the live view.
 * It runs synchronously: no write can land between the replay and the comparison.
 */
export function rebuildAndCompare(db: Database.Database, scratchPath: string): RebuildReport {
  const started = performance.now();
  rmSync(scratchPath, { force: true });
  db.prepare('ATTACH DATABASE ? AS rebuild').run(scratchPath);
  try {
    const events = replayJournal(db, new Projections(db, 'rebuild'));
    const live = digestTables(db, 'main');
    const rebuilt = digestTables(db, 'rebuild');
    const tables = Object.fromEntries(
      Object.keys(live).map((t) => [t, { live: live[t]!, rebuilt: rebuilt[t]!, equal: live[t] === rebuilt[t] }]),
    );
    return {
      equal: Object.values(tables).every((t) => t.equal),
      events,
      live_digest: combined(live),
      rebuilt_digest: combined(rebuilt),
      tables,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    db.prepare('DETACH DATABASE rebuild').run();
    rmSync(scratchPath, { force: true });
    rmSync(`${scratchPath}-journal`, { force: true });
  }
}
