import type { Pool } from 'pg';
import type { Log } from '../log.js';

/** After a replica fails to answer, it is passed over for this long before it is asked again. */
const REPLICA_COOLDOWN_MS = 5_000;

/**
 * Reads GET /outcomes pages from [org].replica_url when one is set, else from the primary.
 * Safe on a streaming replica: WAL replays in commit order and outcome seqs commit in order
 * (the log's lock), so what a replica shows is always a prefix of the primary's lines, and a
 * page read there misses only lines committed since (the next page has them), never skips
 * one. A replica that cannot answer is passed over for the primary for a few seconds.
 */
export class OutcomesReader {
  private replicaFailedAt = -Infinity;

  constructor(
    private readonly primary: Pool,
    private readonly replica: Pool | null,
    private readonly log: Log,
  ) {}

  async page(member: string, since: number, limit: number): Promise<{ seq: string; line: string }[]> {
    const query = {
      name: 'org-outcomes-page',
      text: 'SELECT seq, line FROM outcomes WHERE deployment_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      values: [member, since, limit],
    };
    if (this.replica !== null && Date.now() - this.replicaFailedAt >= REPLICA_COOLDOWN_MS) {
      try {
        return (await this.replica.query<{ seq: string; line: string }>(query)).rows;
      } catch (error) {
        if (this.replicaFailedAt === -Infinity || Date.now() - this.replicaFailedAt > 60_000) {
          this.log.warn('the outcomes replica could not answer; reading the primary meanwhile', { error: error instanceof Error ? error.message : String(error) });
        }
        this.replicaFailedAt = Date.now();
      }
    }
    return (await this.primary.query<{ seq: string; line: string }>(query)).rows;
  }
}
