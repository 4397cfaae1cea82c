import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJournalSchema } from '../../src/journal/schema.js';
import { JournalReads } from '../../src/projections/journal-reads.js';
import { createProjectionTables } from '../../src/projections/projections.js';

/** The store's read of an event by id (JournalReads prepares its reads over the views too, so they are made beside the journal). */
const eventById = (db: Database.Database, eventId: string) => {
  createProjectionTables(db, 'main');
  return new JournalReads(db).byId(eventId);
};

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function database(): Database.Database {
  const home = mkdtempSync(join(tmpdir(), 'event-id-index-'));
  homes.push(home);
  return new Database(join(home, 'gate.db'));
}

const insert = (db: Database.Database, seq: number, eventId: string) =>
  db.prepare(`INSERT INTO journal (seq, event_id, prev, ts, type, by, body, sig) VALUES (?, ?, NULL, 0, 'note', NULL, '{}', 'sig')`).run(seq, eventId);

const journalIndexes = (db: Database.Database) =>
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal' ORDER BY name`).pluck().all() as string[];

const plan = (db: Database.Database) =>
  (db.prepare('EXPLAIN QUERY PLAN SELECT * FROM journal WHERE substr(event_id, 1, 8) = substr(?, 1, 8) AND event_id = ?').all('a', 'a') as Array<{ detail: string }>)
    .map((r) => r.detail)
    .join('; ');

describe('the journal looks an event up by its id', () => {
  it('a new journal keys events by the first 8 hex digits of their id, with no unique index on the whole id', () => {
    const db = database();
    createJournalSchema(db);
    expect(journalIndexes(db)).toContain('journal_event_prefix');
    expect(journalIndexes(db).some((n) => n.startsWith('sqlite_autoindex_journal'))).toBe(false);
    // Two ids sharing their first 8 digits: the read answers the one asked for, through the index.
    insert(db, 1, 'abcdef01' + '1'.repeat(56));
    insert(db, 2, 'abcdef01' + '2'.repeat(56));
    expect(eventById(db, 'abcdef01' + '2'.repeat(56))?.seq).toBe(2);
    expect(eventById(db, 'abcdef01' + '1'.repeat(56))?.seq).toBe(1);
    expect(eventById(db, 'abcdef01' + '3'.repeat(56))).toBeUndefined();
    expect(plan(db)).toContain('journal_event_prefix');
  });

  it('a journal made with the unique index keeps it, gains no second index, and is read through it', () => {
    const db = database();
    db.exec(`CREATE TABLE journal (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, prev TEXT, ts INTEGER NOT NULL,
      type TEXT NOT NULL, by TEXT, artifact_id TEXT, space TEXT, workarea TEXT, body TEXT NOT NULL, sig TEXT NOT NULL)`);
    createJournalSchema(db);
    expect(journalIndexes(db)).not.toContain('journal_event_prefix');
    insert(db, 1, 'f'.repeat(64));
    expect(eventById(db, 'f'.repeat(64))?.seq).toBe(1);
    expect(plan(db)).toContain('sqlite_autoindex_journal_1');
  });
});
