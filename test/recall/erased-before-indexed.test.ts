import { afterEach, describe, expect, it } from 'vitest';
import { InProcessGate } from '../harness/in-process-gate.js';

/**
 * The vectors and held_fts are written after the answer, from the bytes the ingest had in
 * hand (src/recall/fresh-bodies.ts). A row erased between its answer and those writes must
 * never reach either index, though its bytes were still in memory when it was queued.
 */
let g: InProcessGate | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

const word = () => `erasedword${Math.random().toString(36).slice(2, 10)}`;
const hashOf = (gate: InProcessGate, id: string) => gate.gate.store.artifacts.byId(id)!.content_hash;
const vectorRows = (gate: InProcessGate, rowid: number) =>
  ['vector_codes', 'vector_values', 'vector_index'].map(
    (table) => gate.gate.db.prepare(`SELECT count(*) FROM main.${table} WHERE rowid = ?`).pluck().get(rowid) as number,
  );
const heldEntry = (gate: InProcessGate, rowid: number) =>
  gate.gate.db.prepare('SELECT count(*) FROM held.held_fts WHERE rowid = ?').pluck().get(rowid) as number;

/** The row's bytes wait in memory for its vector and its held entry, neither written yet. */
const waiting = (gate: InProcessGate, row: { artifact_id: string; rowid: number }) =>
  gate.gate.pipeline.freshBodies.get(hashOf(gate, row.artifact_id)) !== undefined &&
  gate.gate.pipeline.embed.unplaced([row.rowid]).length === 1 &&
  heldEntry(gate, row.rowid) === 0;

async function derivedWritten(gate: InProcessGate): Promise<void> {
  await gate.gate.recall.heldText.current();
  await gate.settled();
}

describe('a row erased right after its ingest', () => {
  it('never reaches the vector index or the held index, while the row ingested beside it does', async () => {
    g = InProcessGate.open();
    const w = word();
    const kept = await g.ingest(`${w} a note that stays in the gate`);
    // The row to erase while it waits for its vector and its held entry, its bytes at hand in
    // memory. Nothing of the gate's runs between its answer and the look here, unless a loaded
    // machine let the held index's write linger pass meanwhile (the kept one may be written
    // already, as such a machine showed): a row written that soon is not this test's case, so
    // it is erased as well and another is ingested in its place.
    let erased = await g.ingest(`${w} a note whose words are erased at once`);
    for (let attempt = 1; !waiting(g, erased); attempt++) {
      if (attempt === 10) throw new Error('ten rows in a row were indexed before they could be erased');
      await g.call(g.admin, 'gv.erase', { artifact_id: erased.artifact_id, reason: 'indexed before this test could erase it' });
      erased = await g.ingest(`${w} a note whose words are erased at once, attempt ${attempt + 1}`);
    }
    expect(g.gate.pipeline.freshBodies.get(hashOf(g, erased.artifact_id))).toBeDefined();
    expect(g.gate.pipeline.embed.unplaced([erased.rowid])).toEqual([erased.rowid]);
    expect(heldEntry(g, erased.rowid)).toBe(0);

    const r = await g.call(g.admin, 'gv.erase', { artifact_id: erased.artifact_id, reason: 'personal data' });
    expect(r).toMatchObject({ erased: true, changed: true, bytes_removed: true });
    expect(g.gate.pipeline.freshBodies.get(hashOf(g, erased.artifact_id))).toBeUndefined();
    await derivedWritten(g);

    expect(vectorRows(g, kept.rowid)).toEqual([1, 1, 1]);
    expect(heldEntry(g, kept.rowid)).toBe(1);
    expect(vectorRows(g, erased.rowid)).toEqual([0, 0, 0]);
    expect(heldEntry(g, erased.rowid)).toBe(0);
    const rebuilt = await g.call(g.admin, 'gv.rebuild', {});
    expect(rebuilt.equal).toBe(true);
    expect(rebuilt.held).toMatchObject({ checked: 1, equal: 1, rewritten: 0 });
    expect(rebuilt.vectors).toMatchObject({ checked: 1, equal: 1, rewritten: 0 });
  });

  it('the same bytes of another live row are still embedded and indexed for it, read from the store', async () => {
    g = InProcessGate.open();
    const text = `${word()} the same words written by two agents`;
    const erased = await g.ingest(text);
    const twin = await g.ingest(text, g.otherAgent);
    const r = await g.call(g.admin, 'gv.erase', { artifact_id: erased.artifact_id, reason: 'personal data' });
    // The bytes stay for the twin, but no longer wait in memory.
    expect(r).toMatchObject({ changed: true, bytes_removed: false });
    expect(g.gate.pipeline.freshBodies.get(hashOf(g, twin.artifact_id))).toBeUndefined();
    await derivedWritten(g);

    expect(vectorRows(g, erased.rowid)).toEqual([0, 0, 0]);
    expect(heldEntry(g, erased.rowid)).toBe(0);
    expect(vectorRows(g, twin.rowid)).toEqual([1, 1, 1]);
    expect(heldEntry(g, twin.rowid)).toBe(1);
    expect((await g.call(g.admin, 'gv.rebuild', {})).equal).toBe(true);
  });
});
