import type Database from 'better-sqlite3';

/** Prepared reads of the ranks view: who weighted a promoted row for an audience. */
export class RankReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      standing: p('SELECT weight, seq FROM ranks WHERE artifact_id = ? AND audience = ? AND by = ?'),
      totals: p('SELECT coalesce(sum(weight), 0) AS sum, count(*) AS n FROM ranks WHERE artifact_id = ? AND audience = ?'),
    };
  }

  /** The weight `by` gave the row for the audience, if it gave one. */
  standing(artifactId: string, audience: string, by: string): { weight: number; seq: number } | undefined {
    return this.s.standing!.get(artifactId, audience, by) as { weight: number; seq: number } | undefined;
  }

  /** The weights on the row for the audience: their sum and how many gave one. */
  totals(artifactId: string, audience: string): { sum: number; n: number } {
    return this.s.totals!.get(artifactId, audience) as { sum: number; n: number };
  }
}
