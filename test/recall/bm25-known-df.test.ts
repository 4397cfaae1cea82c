import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { nativeBuildPath } from '../../src/native-build.js';
import { EXACT_COUNT_MAX, TermFrequencies } from '../../src/recall/term-frequencies.js';

const WORDS = ['alder', 'birch', 'cedar', 'dogwood', 'elm', 'fir', 'ginkgo', 'hazel', 'ironwood', 'juniper'];

/** recall_fts's shape, filled with rows whose word counts vary: word w is in about 1/(w+1) of them. */
function table(rows: number): Database.Database {
  const db = new Database(':memory:');
  db.loadExtension(nativeBuildPath('bm25_known_df.node'));
  db.exec(`CREATE VIRTUAL TABLE recall_fts USING fts5(
    body, space UNINDEXED, workarea UNINDEXED, provisional UNINDEXED, superseded UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO recall_fts (rowid, body, space, workarea, provisional, superseded) VALUES (?, ?, ?, NULL, 0, 0)');
  db.transaction(() => {
    for (let i = 1; i <= rows; i++) {
      const words: string[] = [];
      WORDS.forEach((w, rank) => {
        for (let n = 0; n < ((i * 7 + rank) % 3) + 1; n++) if (i % (rank + 1) === 0) words.push(w);
      });
      words.push(...Array(i % 5).fill('filler'));
      insert.run(i, words.join(' ') || 'empty', 'main');
    }
  })();
  return db;
}

const count = (db: Database.Database, term: string) =>
  db.prepare(`SELECT count(*) FROM recall_fts WHERE recall_fts MATCH ?`).pluck().get(`"${term}"`) as number;

/** gate_bm25's parameters (native/bm25-known-df.c): Anserini's defaults, not FTS5's k1 1.2 and b 0.75. */
const K1 = 0.9;
const B = 0.4;

/**
 * BM25 as gate_bm25 computes it, from the rows' texts: FTS5's IDF (floored at 1e-6) with k1
 * and b above, negated. `df` are the frequencies the function is given, one a term.
 */
function expectedScores(db: Database.Database, terms: readonly string[], df: readonly number[]): Map<number, number> {
  const rows = db.prepare('SELECT rowid, body FROM recall_fts').all() as Array<{ rowid: number; body: string }>;
  const lengths = new Map(rows.map((r) => [r.rowid, r.body.split(' ').length]));
  const avgdl = [...lengths.values()].reduce((a, b) => a + b, 0) / rows.length;
  const idf = df.map((n) => Math.max(Math.log((rows.length - n + 0.5) / (n + 0.5)), 1e-6));
  return new Map(
    rows.map((r) => {
      const words = r.body.split(' ');
      let score = 0;
      terms.forEach((t, i) => {
        const tf = words.filter((w) => w === t).length;
        score += (idf[i]! * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * lengths.get(r.rowid)!) / avgdl));
      });
      return [r.rowid, -score];
    }),
  );
}

describe('gate_bm25 (native/bm25-known-df.c)', () => {
  const db = table(3_000);

  it('scores BM25 with k1 0.9 and b 0.4 and the document frequencies it is given', () => {
    for (const [expression, terms] of [
      ['"birch" AND "elm"', ['birch', 'elm']],
      ['"alder" OR "hazel" OR "juniper"', ['alder', 'hazel', 'juniper']],
      ['"cedar"', ['cedar']],
    ] as const) {
      const df = terms.map((t) => count(db, t));
      const expected = expectedScores(db, terms, df);
      const rows = db
        .prepare(`SELECT rowid, bm25(recall_fts) AS fts5, gate_bm25(recall_fts${', ?'.repeat(df.length)}) AS got
                  FROM recall_fts WHERE recall_fts MATCH ? ORDER BY rowid`)
        .all(...df, expression) as Array<{ rowid: number; fts5: number; got: number }>;
      expect(rows.length).toBeGreaterThan(100);
      for (const r of rows) expect(r.got).toBeCloseTo(expected.get(r.rowid)!, 12);
      // Not FTS5's own parameters: the rows' lengths differ, so the scores do.
      expect(rows.some((r) => Math.abs(r.got - r.fts5) > 1e-6)).toBe(true);
    }
  });

  it('counts a phrase itself when no frequency is given for it, as bm25() does', () => {
    const rows = db
      .prepare(`SELECT gate_bm25(recall_fts, ?, ?) AS given, gate_bm25(recall_fts, ?) AS got FROM recall_fts WHERE recall_fts MATCH ?`)
      .all(count(db, 'fir'), count(db, 'ginkgo'), count(db, 'fir'), '"fir" OR "ginkgo"') as Array<{ given: number; got: number }>;
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) expect(r.got).toBe(r.given);
  });

  it('ranks by the frequencies it is given: a word said to be rare outweighs one said to be common', () => {
    const top = (dfBirch: number, dfElm: number) =>
      (db.prepare(`SELECT rowid FROM recall_fts WHERE recall_fts MATCH '"birch" OR "elm"' ORDER BY gate_bm25(recall_fts, ?, ?) LIMIT 1`).pluck().get(dfBirch, dfElm) as number);
    expect(top(10, 2_900) % 2).toBe(0); // birch is in even rows
    expect(top(2_900, 10) % 5).toBe(0); // elm in every fifth
  });
});

describe('gate_bm25 on the recall shape (body, then the area tokens)', () => {
  it('gives an area phrase with frequency -1 no weight, and counts only the body toward a row length', () => {
    const db = new Database(':memory:');
    db.loadExtension(nativeBuildPath('bm25_known_df.node'));
    db.exec(`CREATE VIRTUAL TABLE recall_fts USING fts5(body, areas, space UNINDEXED)`);
    const insert = db.prepare('INSERT INTO recall_fts (rowid, body, areas, space) VALUES (?, ?, ?, ?)');
    for (let i = 1; i <= 200; i++) {
      const words = `${i % 2 === 0 ? 'birch ' : ''}${'filler '.repeat(i % 7)}elm`;
      insert.run(i, words, i % 3 === 0 ? 'wone wtwo wthree wfour' : 'wone', 'main');
    }
    const df = db.prepare(`SELECT count(*) FROM recall_fts WHERE recall_fts MATCH 'body:"birch"'`).pluck().get() as number;
    const alone = db
      .prepare(`SELECT rowid, gate_bm25(recall_fts, ?) AS s FROM recall_fts WHERE recall_fts MATCH 'body:"birch"' ORDER BY rowid`)
      .all(df) as Array<{ rowid: number; s: number }>;
    const inArea = db
      .prepare(`SELECT rowid, gate_bm25(recall_fts, ?, -1) AS s FROM recall_fts WHERE recall_fts MATCH '(body:"birch") AND (areas:"wone")' ORDER BY rowid`)
      .all(df) as Array<{ rowid: number; s: number }>;
    expect(inArea).toEqual(alone);
    // Rows 6 and 20 have the same body and differ in their area tokens (four against one): they score alike.
    const score = new Map(alone.map((r) => [r.rowid, r.s]));
    expect(score.get(6)).toBeDefined();
    expect(score.get(6)).toBe(score.get(20));
  });
});

describe('TermFrequencies', () => {
  it('counts a term in fewer than EXACT_COUNT_MAX rows exactly, and estimates a more frequent one closely', () => {
    const db = table(3 * EXACT_COUNT_MAX);
    const frequencies = new TermFrequencies(db, 'recall_fts');
    const [rare, frequent, absent] = frequencies.of(['juniper', 'alder', 'yew']);
    expect(count(db, 'juniper')).toBeLessThan(EXACT_COUNT_MAX);
    expect(rare).toBe(count(db, 'juniper'));
    const exact = count(db, 'alder');
    expect(exact).toBeGreaterThan(EXACT_COUNT_MAX);
    expect(Math.abs(frequent! - exact) / exact).toBeLessThan(0.05);
    expect(absent).toBe(0);
  });
});
