import { afterEach, describe, expect, it } from 'vitest';
import { InProcessGate } from '../harness/in-process-gate.js';

/**
 * held_fts, the text index of each writer's scanned held rows, is written after each commit
 * in batches of its own (src/recall/held-text-index.ts), not inside the ingest's transaction.
 */
let g: InProcessGate | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

const word = () => `heldword${Math.random().toString(36).slice(2, 10)}`;
const entries = (gate: InProcessGate) =>
  gate.gate.db.prepare('SELECT rowid FROM held_fts ORDER BY rowid').pluck().all() as number[];

describe('the held rows\' text index, written after the answer', () => {
  it('an answered ingest is found by its writer\'s next recall; a row leaving L1_SCANNED leaves the index', async () => {
    g = InProcessGate.open();
    const w = word();
    const rows = [];
    for (let i = 0; i < 5; i++) rows.push(await g.ingest(`${w} note ${i} on the held index`));
    expect((await g.ownHeldHits(w)).sort()).toEqual(rows.map((r) => r.artifact_id).sort());
    expect(entries(g)).toEqual(rows.map((r) => r.rowid));
    await g.call(g.reviewer, 'gv.reject', { artifact_id: rows[0]!.artifact_id, reason: 'test' });
    await g.promote(rows[1]!.artifact_id);
    expect((await g.ownHeldHits(w)).sort()).toEqual(rows.slice(2).map((r) => r.artifact_id).sort());
    expect(entries(g)).toEqual(rows.slice(2).map((r) => r.rowid));
  });

  it('moves a crash left unwritten are put right at the next start, before the gate serves', async () => {
    g = InProcessGate.open();
    const w = word();
    const kept = await g.ingest(`${w} kept through the crash`);
    const lost = await g.ingest(`${w} whose entry the crash lost`);
    await g.ownHeldHits(w);
    await g.close();
    // As a crash between a commit and its held batch leaves it: one entry missing, one that no longer belongs.
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(`${g.home}/held-index.db`);
    db.prepare('DELETE FROM held_fts WHERE rowid = ?').run(lost.rowid);
    db.prepare(`INSERT INTO held_fts (rowid, body, areas, space, workarea, writer) VALUES (999, '${w} gone', '', 'main', null, 'key:agent-a')`).run();
    db.close();
    g.reopen();
    expect(g.lines.filter((l) => l.startsWith('info held index'))).toEqual([expect.stringMatching(/^info held index: 2 entries written or removed at start \(\d+ ms\)$/)]);
    expect(entries(g)).toEqual([kept.rowid, lost.rowid]);
    expect((await g.ownHeldHits(w)).sort()).toEqual([kept.artifact_id, lost.artifact_id].sort());
  });

  it('gv.rebuild checks every entry against the views and the content store and rewrites one that differs', async () => {
    g = InProcessGate.open();
    const w = word();
    const rows = [await g.ingest(`${w} one`), await g.ingest(`${w} two`), await g.ingest(`${w} three`)];
    await g.ownHeldHits(w);
    const clean = await g.call(g.admin, 'gv.rebuild', {});
    expect(clean.equal).toBe(true);
    expect(clean.held).toMatchObject({ checked: 3, equal: 3, missing: 0, differing: 0, extra: 0, rewritten: 0 });
    g.gate.db.prepare('DELETE FROM held_fts WHERE rowid = ?').run(rows[1]!.rowid);
    g.gate.db.prepare(`INSERT INTO held_fts (rowid, body, areas, space, workarea, writer) VALUES (?, 'other words', '', 'main', null, 'key:agent-a')`).run(rows[1]!.rowid);
    g.gate.db.prepare('DELETE FROM held_fts WHERE rowid = ?').run(rows[2]!.rowid);
    const found = await g.call(g.admin, 'gv.rebuild', {});
    expect(found.held).toMatchObject({ checked: 3, equal: 1, missing: 1, differing: 1, extra: 0, rewritten: 2 });
    expect((await g.ownHeldHits(w)).sort()).toEqual(rows.map((r) => r.artifact_id).sort());
    expect((await g.call(g.admin, 'gv.rebuild', {})).held).toMatchObject({ equal: 3, rewritten: 0 });
  });
});
