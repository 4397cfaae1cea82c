import type Database from 'better-sqlite3';
import type { JournalEventOf } from '../../src/journal/catalogue/catalogue.js';
import { defineView } from '../../src/projections/define-view.js';

/**
 * A view's module as docs/architecture.md, "Adding a view", has a developer write one: its
 * tables, their digest, its reducer, its reads and its one `defineView`, and nothing about
 * which events it folds (the catalogue says so). It keeps how many times each row was
 * weighted (`rank`), counting the weights the ranks view replaces. adding-a-view.test.ts makes
 * the page's two other edits, `'rank-probe'` in the `folds` of `rank` and this declaration in
 * the view list, as mocks of those two modules. This file is not compiled with src/ (tsconfig
 * holds src/ only), so its name, which only the mocked catalogue folds by, is not refused here
 * as the compiler refuses a view's name no declaration folds by in src/.
 */
export const rankProbeTables = (schema: string) => `
  CREATE TABLE IF NOT EXISTS ${schema}.rank_probe (
    artifact_id TEXT PRIMARY KEY,
    weighted INTEGER NOT NULL
  ) WITHOUT ROWID;
`;

export const rankProbeDigest = (schema: string) => ({
  rank_probe: `SELECT * FROM ${schema}.rank_probe ORDER BY artifact_id`,
});

export class RankProbeReducer {
  private readonly count: Database.Statement;

  constructor(db: Database.Database, schema: string) {
    this.count = db.prepare(`INSERT INTO ${schema}.rank_probe (artifact_id, weighted) VALUES (?, 1)
      ON CONFLICT(artifact_id) DO UPDATE SET weighted = weighted + 1`);
  }

  apply(event: JournalEventOf<'rank'>): void {
    this.count.run(event.data.artifact_id);
  }
}

export class RankProbeReads {
  private readonly weighted: Database.Statement;

  constructor(db: Database.Database) {
    this.weighted = db.prepare('SELECT weighted FROM rank_probe WHERE artifact_id = ?').pluck();
  }

  /** How many times the row was weighted, for any audience, by anyone (0: never). */
  timesWeighted(artifactId: string): number {
    return (this.weighted.get(artifactId) as number | undefined) ?? 0;
  }
}

export const rankProbeView = defineView({
  name: 'rank-probe',
  tables: rankProbeTables,
  digest: rankProbeDigest,
  reducer: (db, schema) => new RankProbeReducer(db, schema),
  reads: {
    rankProbe: ({ db }) => new RankProbeReads(db),
  },
});
