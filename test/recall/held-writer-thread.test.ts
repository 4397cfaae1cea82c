import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { HeldWriterThread } from '../../dist/src/recall/held-writer-thread.js';
import { InProcessGate } from '../harness/in-process-gate.js';

const writeToThread = HeldWriterThread.prototype.write;

/**
 * The held rows' text index is written by a thread of its own into a file of its own,
 * held-index.db (src/recall/held-writer-thread.ts, workers/held-writer/held-index-file.ts), so its
 * writes never hold the journal's write lock.
 */
let g: InProcessGate | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
  vi.restoreAllMocks();
});

const word = () => `threadword${Math.random().toString(36).slice(2, 10)}`;
/** One column of a query's rows, read from a database file opened read-only for it. */
const columnIn = <T>(file: string, sql: string): T[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).pluck().all() as T[];
  } finally {
    db.close();
  }
};
const tablesOf = (file: string) => columnIn<string>(file, "SELECT name FROM sqlite_schema WHERE type = 'table'");
const entriesIn = (file: string) => columnIn<number>(file, 'SELECT rowid FROM held_fts ORDER BY rowid');

describe('the held index in held-index.db, written by its own thread', () => {
  it('entries are in held-index.db, none in gate.db; a home whose gate.db held the index has it dropped and written anew', async () => {
    g = InProcessGate.open();
    const w = word();
    const rows = [await g.ingest(`${w} first draft`), await g.ingest(`${w} second draft`)];
    expect((await g.ownHeldHits(w)).sort()).toEqual(rows.map((r) => r.artifact_id).sort());
    await g.close();
    expect(entriesIn(`${g.home}/held-index.db`)).toEqual(rows.map((r) => r.rowid));
    expect(tablesOf(`${g.home}/gate.db`)).not.toContain('held_fts');

    // A home from before the file: the index inside gate.db (here with a stale entry), no held-index.db.
    const gateDb = new Database(`${g.home}/gate.db`);
    gateDb.exec(`CREATE VIRTUAL TABLE main.held_fts USING fts5(body, areas, space UNINDEXED, workarea UNINDEXED, writer UNINDEXED);
      INSERT INTO main.held_fts (rowid, body, areas, space, workarea, writer) VALUES (999, '${w} stale', '', 'main', null, 'key:agent-a')`);
    gateDb.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${g.home}/held-index.db${suffix}`, { force: true });
    g.reopen();
    expect(g.lines).toContainEqual(expect.stringMatching(/^info held index: 2 entries written or removed at start/));
    expect(tablesOf(`${g.home}/gate.db`)).not.toContain('held_fts');
    expect(existsSync(`${g.home}/held-index.db`)).toBe(true);
    expect((await g.ownHeldHits(w)).sort()).toEqual(rows.map((r) => r.artifact_id).sort());
  });

  it('ingests are answered while another connection holds held-index.db\'s write lock; the batch lands once it is free', async () => {
    g = InProcessGate.open();
    const w = word();
    await g.ingest(`${w} before the lock`);
    await g.gate.recall.heldText.current();
    const handed: number[][] = [];
    vi.spyOn(HeldWriterThread.prototype, 'write').mockImplementation(function (this: HeldWriterThread, rowids: number[]) {
      handed.push([...rowids]);
      return writeToThread.call(this, rowids);
    });
    const other = new Database(`${g.home}/held-index.db`);
    other.exec('BEGIN IMMEDIATE');
    let rows: Array<{ rowid: number; artifact_id: string }>;
    try {
      // The journal's group commits need gate.db's lock only: these are answered while the index waits.
      rows = await Promise.all([1, 2, 3].map((i) => g!.ingest(`${w} held back ${i}`)));
      expect(rows.every((r) => r.rowid > 0)).toBe(true);
      // Their batch is with the thread, which waits in SQLite's busy handler for the lock; the
      // main thread does not (written there, the batch would stall it for the 5 s busy timeout):
      // the rows are handed to the thread, awaited as a condition, not timed (test/README.md, "Waiting").
      await vi.waitFor(() => expect(handed.flat()).toEqual(expect.arrayContaining(rows.map((r) => r.rowid))), { timeout: 30_000, interval: 20 });
      expect(other.prepare('SELECT count(*) FROM held_fts WHERE rowid IN (?, ?, ?)').pluck().get(...rows.map((r) => r.rowid))).toBe(0);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    await g.gate.recall.heldText.current();
    expect(g.lines.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(entriesIn(`${g.home}/held-index.db`)).toEqual(expect.arrayContaining(rows.map((r) => r.rowid)));
    expect((await g.ownHeldHits(w)).length).toBe(4);
  });

  it('a thread held back past 2,048 rows holds new writes until it has written half of them', async () => {
    g = InProcessGate.open();
    const gate = g;
    const w = word();
    const other = new Database(`${gate.home}/held-index.db`);
    other.exec('BEGIN IMMEDIATE');
    const answered: Array<Promise<unknown>> = [];
    try {
      // Held back by the lock, the thread writes nothing; every ingest adds a row to write.
      // A group's last ingests may be the first the pressure holds: a group is awaited only until it comes.
      const pressed = () => vi.waitFor(() => expect(gate.gate.recall.heldText.pressure()).toBeDefined(), { timeout: 60_000, interval: 5 });
      for (let i = 0; i < 3_000 && gate.gate.recall.heldText.pressure() === undefined; i++) {
        answered.push(gate.ingest(`${w} backlog ${i}`));
        if (i % 64 === 63) await Promise.race([Promise.all(answered.slice(-64)), pressed()]);
      }
      expect(gate.gate.recall.heldText.pressure()).toBeDefined();
      let late = false;
      const held = gate.ingest(`${w} held by the pressure`).then(() => (late = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(late).toBe(false);
      other.exec('COMMIT');
      await held;
    } finally {
      if (other.inTransaction) other.exec('COMMIT');
      other.close();
    }
    await Promise.all(answered);
    await gate.gate.recall.heldText.current();
    expect(gate.gate.recall.heldText.pressure()).toBeUndefined();
    const rebuild = await gate.call(gate.admin, 'gv.rebuild', {});
    expect(rebuild.held).toMatchObject({ checked: answered.length + 1, missing: 0, rewritten: 0 });
  });

  it('a thread that stops: a warning says so, and the index is written on the main connection from then on', async () => {
    g = InProcessGate.open();
    const gate = g;
    const w = word();
    const first = await gate.ingest(`${w} while the thread runs`);
    expect(await gate.ownHeldHits(w)).toEqual([first.artifact_id]);
    const thread = gate.gate.recall.heldText.thread!;
    await thread.worker.terminate();
    await vi.waitFor(() => expect(gate.lines.some((l) => l.startsWith('warn the held-text index thread stopped'))).toBe(true));
    expect(thread.available).toBe(false);
    const second = await gate.ingest(`${w} after the thread`);
    expect((await gate.ownHeldHits(w)).sort()).toEqual([first.artifact_id, second.artifact_id].sort());
    const rebuild = await gate.call(gate.admin, 'gv.rebuild', {});
    expect(rebuild.held).toMatchObject({ checked: 2, equal: 2, rewritten: 0 });
  });
});
