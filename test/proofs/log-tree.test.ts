import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { createJournalSchema } from '../../dist/src/journal/schema.js';
import { LogTreeReducer, logTreeTables } from '../../dist/src/projections/log-tree.js';
import { nodePosition } from '../../dist/src/projections/log-tree-position.js';
import { LogTreeReads } from '../../dist/src/projections/log-tree-reads.js';
import { MerkleFrontier } from '../../dist/src/forms/merkle-frontier.js';

/** RFC 9162 2.1.1 written out again from the text, to check the gate's tree against. */
const sha = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
const leaf = (id: string) => sha(Buffer.from([0]), Buffer.from(id, 'hex'));
function mth(ids: string[]): Buffer {
  if (ids.length === 0) return sha();
  if (ids.length === 1) return leaf(ids[0]!);
  let k = 1;
  while (k * 2 < ids.length) k *= 2;
  return sha(Buffer.from([1]), mth(ids.slice(0, k)), mth(ids.slice(k)));
}
function path(m: number, ids: string[]): Buffer[] {
  if (ids.length <= 1) return [];
  let k = 1;
  while (k * 2 < ids.length) k *= 2;
  return m < k ? [...path(m, ids.slice(0, k)), mth(ids.slice(k))] : [...path(m - k, ids.slice(k)), mth(ids.slice(0, k))];
}
function subproof(m: number, ids: string[], whole: boolean): Buffer[] {
  if (m === ids.length) return whole ? [] : [mth(ids)];
  let k = 1;
  while (k * 2 < ids.length) k *= 2;
  return m <= k ? [...subproof(m, ids.slice(0, k), whole), mth(ids.slice(k))] : [...subproof(m - k, ids.slice(k), false), mth(ids.slice(0, k))];
}

/** A journal of `n` events with random ids, folded into the tree by the gate's own reducer, as appends do. */
function journalOf(n: number) {
  const db = new Database(':memory:');
  createJournalSchema(db);
  db.exec(logTreeTables('main'));
  const reducer = new LogTreeReducer(db, 'main');
  const insert = db.prepare("INSERT INTO journal (seq, event_id, prev, ts, type, body, sig) VALUES (?, ?, ?, 0, 't', '{}', '')");
  const ids: string[] = [];
  db.transaction(() => {
    for (let seq = 1; seq <= n; seq++) {
      const id = randomBytes(32).toString('hex');
      const prev = ids.at(-1) ?? null;
      insert.run(seq, id, prev);
      reducer.apply({ v: 1, seq, type: 't', ts: 0, prev, by: null, data: {}, event_id: id, sig: '' });
      ids.push(id);
    }
  })();
  return { db, ids, reads: new LogTreeReads(db) };
}

describe('the journal as an RFC 9162 Merkle tree', () => {
  const { db, ids, reads } = journalOf(130);

  it('has the root RFC 9162 gives at every size, and the one-pass frontier agrees', () => {
    const frontier = new MerkleFrontier();
    for (let n = 1; n <= ids.length; n++) {
      frontier.push(leaf(ids[n - 1]!));
      expect(reads.root(n).equals(mth(ids.slice(0, n))), `size ${n}`).toBe(true);
      expect(frontier.root().equals(reads.root(n)), `frontier at ${n}`).toBe(true);
    }
  });

  it('stores about one node per event, none of them a leaf, each new one at the largest key so far', () => {
    const stored = db.prepare('SELECT COUNT(*) AS n FROM log_tree').get() as { n: number };
    const order = db.prepare('SELECT pos FROM log_tree ORDER BY rowid').pluck().all() as number[];
    // Keys grow in the order nodes were inserted: every append writes at the table's right edge.
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(nodePosition(1, 0)).toBe(2); // post-order: leaves 0, 1 take places 0, 1; their parent 2
    expect(nodePosition(2, 0)).toBe(6);
    expect(nodePosition(1, 1)).toBe(5);
    // n minus the set bits of n: 130 = 128 + 2 gives 127 nodes over the first 128 leaves and 1 over the last pair
    expect(stored.n).toBe(128);
  });

  it('gives the inclusion path RFC 9162 2.1.3.1 gives, for every leaf of several sizes', () => {
    for (const n of [1, 2, 3, 5, 8, 13, 64, 100, 130]) {
      for (let m = 0; m < n; m++) {
        expect(reads.inclusion(m, n).hashes.map((h) => h.toString('hex')), `leaf ${m} of ${n}`).toEqual(path(m, ids.slice(0, n)).map((h) => h.toString('hex')));
      }
    }
  });

  it('gives the consistency proof RFC 9162 2.1.4.1 gives, between every pair of sizes up to 40 and some larger', () => {
    const pairs: Array<[number, number]> = [[7, 130], [64, 130], [65, 128], [100, 101], [130, 130]];
    for (let n = 1; n <= 40; n++) for (let m = 1; m <= n; m++) pairs.push([m, n]);
    for (const [m, n] of pairs) {
      expect(reads.consistency(m, n).map((h) => h.toString('hex')), `${m} to ${n}`).toEqual(subproof(m, ids.slice(0, n), true).map((h) => h.toString('hex')));
    }
  });

  it('refuses sizes the journal does not hold and leaves outside the tree', () => {
    expect(() => reads.root(131)).toThrow(/holds 130 events/);
    expect(() => reads.root(0)).toThrow(RangeError);
    expect(() => reads.inclusion(10, 10)).toThrow(/outside/);
    expect(() => reads.consistency(0, 10)).toThrow(RangeError);
    expect(() => reads.consistency(11, 10)).toThrow(RangeError);
  });
});
