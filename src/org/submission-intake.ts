import type { Pool } from 'pg';
import { RoundTripBatch } from './round-trip-batch.js';

export interface IntakeItem {
  member: string;
  /** The checked submission; null for a body its check refused, which still counts against the member's rate. */
  row: { artifact_id: string; submission_id: string; trust_class: string; body: string } | null;
  /** false: counted here, taken by the door's locking path (a policy decides it, the inbox is near full). */
  insertNow: boolean;
}

/** over_rate: past [org].member_rate_per_s this second; inserted: taken into the inbox (202), else null. */
export interface IntakeResult {
  overRate: boolean;
  inserted: { attempts: number } | null;
}

/**
 * One statement, so one transaction and one commit, for every request of the batch: each
 * member's count for this second goes up by its requests in the batch (member_rate, shared by
 * every org process), each request learns its place in that count in arrival order, and the
 * new submissions within the rate are inserted (ON CONFLICT DO NOTHING: a row seen before is
 * the locking path's). Prepared once per connection.
 */
const INTAKE = `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[]) WITH ORDINALITY
    AS t(deployment_id, artifact_id, submission_id, trust_class, body, insert_now, n)
),
counted AS (
  INSERT INTO member_rate (deployment_id, window_s, count)
  SELECT deployment_id, $7, count(*) FROM input GROUP BY deployment_id
  ON CONFLICT (deployment_id, window_s) DO UPDATE SET count = member_rate.count + EXCLUDED.count
  RETURNING deployment_id, count
),
placed AS (
  SELECT input.*, counted.count - count(*) OVER w + row_number() OVER (w ORDER BY n) AS place
    FROM input JOIN counted USING (deployment_id)
  WINDOW w AS (PARTITION BY input.deployment_id)
),
inserted AS (
  INSERT INTO submissions (deployment_id, artifact_id, submission_id, trust_class, body, state)
  SELECT deployment_id, artifact_id, submission_id, trust_class, body, 'leased' FROM placed
   WHERE insert_now AND place <= $8
  ON CONFLICT DO NOTHING
  RETURNING deployment_id, artifact_id, attempts
)
SELECT placed.n, placed.place, inserted.attempts
  FROM placed LEFT JOIN inserted ON inserted.deployment_id = placed.deployment_id AND inserted.artifact_id = placed.artifact_id AND placed.insert_now
 ORDER BY placed.n`;

/**
 * PUT /submissions' writes, grouped: the requests that arrive while a batch commits go
 * together in the next (RoundTripBatch), so under load a commit carries many submissions
 * and a submission costs one statement's share instead of two commits of its own.
 */
export class SubmissionIntake {
  private readonly batch: RoundTripBatch<IntakeItem, IntakeResult>;

  constructor(
    private readonly pool: Pool,
    private readonly ratePerSecond: () => number,
    maxBatch = 256,
  ) {
    this.batch = new RoundTripBatch((items) => this.write(items), maxBatch);
  }

  take(item: IntakeItem): Promise<IntakeResult> {
    return this.batch.submit(item);
  }

  private async write(items: IntakeItem[]): Promise<IntakeResult[]> {
    // The same row twice in one batch: the first may insert it, the others are repeats.
    const seen = new Set<string>();
    const insertNow = items.map((item) => {
      if (!item.insertNow || item.row === null) return false;
      const key = `${item.member} ${item.row.artifact_id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const second = Math.floor(Date.now() / 1000);
    const limit = this.ratePerSecond();
    const rows = await this.pool.query<{ n: string; place: string; attempts: number | null }>({
      name: 'org-intake',
      text: INTAKE,
      values: [
        items.map((i) => i.member),
        items.map((i) => i.row?.artifact_id ?? null),
        items.map((i) => i.row?.submission_id ?? null),
        items.map((i) => i.row?.trust_class ?? null),
        items.map((i) => i.row?.body ?? null),
        insertNow,
        second,
        limit,
      ],
    });
    // Old windows are swept now and then by whichever batch happens to draw it.
    if (Math.random() < 0.01) await this.pool.query('DELETE FROM member_rate WHERE window_s < $1', [second - 60]);
    return rows.rows.map((r) => ({
      overRate: Number(r.place) > limit,
      inserted: r.attempts === null ? null : { attempts: r.attempts },
    }));
  }
}
