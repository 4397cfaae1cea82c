import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessGate } from '../harness/in-process-gate.js';
import { laterArtifactEvent } from '../../dist/src/journal/schema.js';
import { artifactEventsSql } from '../../dist/src/projections/journal-reads.js';
import { resolveHome } from '../../dist/src/config/home.js';

let g: InProcessGate;
beforeAll(() => {
  g = InProcessGate.open();
});
afterAll(async () => {
  await g?.close();
});

const indexed = (id: string) =>
  g.gate.db.prepare(`SELECT type FROM journal INDEXED BY journal_artifact_later WHERE artifact_id = ? AND ${laterArtifactEvent()} ORDER BY seq`).pluck().all(id) as string[];
const allEvents = (id: string) => g.gate.db.prepare('SELECT seq, type FROM journal WHERE artifact_id = ? ORDER BY seq').all(id) as Array<{ seq: number; type: string }>;

describe("the journal's artifact index leaves out an ingest's own two events", () => {
  it('an ingest puts nothing in it; a promotion does; every read of the row still finds all of its events', async () => {
    const { artifact_id: id } = await g.ingest('The nightly export writes the orders table to the warehouse bucket at 02:00.');
    expect(indexed(id)).toEqual([]);
    await g.promote(id);
    expect(indexed(id)).toContain('promote');
    expect(indexed(id)).not.toContain('ingest');
    expect(indexed(id)).not.toContain('scan');

    const reads = g.gate.store.journalReads;
    const events = allEvents(id);
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(['ingest', 'scan']);
    expect(reads.eventsOf(id).map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(reads.eventsOfNewestFirst(id).map((e) => e.seq)).toEqual(events.map((e) => e.seq).reverse());
    expect(reads.firstIngestOf(id)?.seq).toBe(events[0]!.seq);
    expect(reads.lastSeqOf(id)).toBe(events.at(-1)!.seq);
    expect(reads.newestScan(id)?.seq).toBe(events[1]!.seq);
    expect(g.gate.store.artifacts.byId(id)).toMatchObject({ ingest_seq: events[0]!.seq, scan_seq: events[1]!.seq });
    const why = await g.call(g.reviewer, 'gv.why', { artifact_id: id });
    expect(why.events.map((e: { type: string }) => e.type).slice(0, 3)).toEqual(['ingest', 'scan', 'promote']);
  });

  it('a later scan is in the index and is the newest scan read', async () => {
    const { artifact_id: id } = await g.ingest('The warehouse bucket keeps ninety days of order exports.');
    const first = allEvents(id)[1]!.seq;
    const row = g.gate.store.artifacts.byId(id)!;
    // A scan by another scanner, as an upgrade's rescan journals one (leaves the row's state, not L0_RAW).
    const later = await g.gate.store.writer.write(() =>
      g.gate.store.journal.append('scan', 'test', {
        artifact_id: id,
        space: 'main',
        workarea: 'test/area',
        leaves: row.state,
        enters: row.state,
        trust_class: row.trust_class,
        content_type: row.content_type,
        findings_count: 0,
        findings: [],
        masked_hash: row.masked_hash,
        scanner: 'an older scanner',
      }),
    );
    expect(indexed(id)).toEqual(['scan']);
    expect(g.gate.store.journalReads.newestScan(id)?.seq).toBe(later.seq);
    expect(g.gate.store.artifacts.byId(id)?.scan_seq).toBe(first);
  });

  it('reads of one artifact use the index, not a walk of the journal', () => {
    const plan = (sql: string) => (g.gate.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    // A read of later events only (promotions, evidence) names the index's terms.
    expect(plan(`SELECT * FROM journal WHERE artifact_id = ? AND type = 'promote' AND ${laterArtifactEvent()}`)).toContain('journal_artifact_later');
    const all = plan(artifactEventsSql('*', 'ORDER BY seq'));
    expect(all).toContain('journal_artifact_later');
    expect(all).not.toMatch(/SCAN journal\b/);
  });

  it("a home made before, with the whole artifact index, gets the partial one and its views replayed at start", async () => {
    const { artifact_id: id } = await g.ingest('Order exports older than ninety days move to the archive tier.');
    const seqs = allEvents(id).map((e) => e.seq);
    await g.close();
    // As the build before left it: the index on every event of an artifact, views of schema 18.
    const db = new Database(resolveHome(g.home).db);
    db.exec(`DROP INDEX journal_artifact_later;
      CREATE INDEX journal_artifact ON journal(artifact_id) WHERE artifact_id IS NOT NULL;
      UPDATE artifacts SET scan_seq = NULL;
      PRAGMA user_version = 18;`);
    db.close();
    g.reopen();
    const indexes = g.gate.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal'`).pluck().all() as string[];
    expect(indexes).toContain('journal_artifact_later');
    expect(indexes).not.toContain('journal_artifact');
    expect(g.gate.store.artifacts.byId(id)?.scan_seq).toBe(seqs[1]);
    expect(g.gate.store.journalReads.eventsOf(id).map((e) => e.seq)).toEqual(seqs);
  });
});
