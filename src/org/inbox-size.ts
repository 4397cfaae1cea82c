import type { Pool } from 'pg';

/** How old a count of the inbox may be while the inbox is far from full. */
const FRESH_MS = 1000;

/**
 * Whether the inbox holds [org].inbox_max undecided submissions. Counting them is a scan
 * of the open rows, so a process reuses its last count for a second while that count is
 * below 90% of the limit, and counts afresh on every request nearer to it. The database
 * stays the only truth (this is a read, never shared state); several processes may admit
 * at most about one second of submissions past a limit they had not yet come near.
 */
export class InboxSize {
  private count = 0;
  private at = -Infinity;
  private admittedSince = 0;

  constructor(
    private readonly pool: Pool,
    private readonly max: () => number,
  ) {}

  async full(now = Date.now()): Promise<boolean> {
    const max = this.max();
    const estimate = this.count + this.admittedSince;
    if (now - this.at < FRESH_MS && estimate < max * 0.9) return false;
    const n = await this.pool.query<{ n: string }>("SELECT count(*) AS n FROM submissions WHERE state IN ('leased', 'held')");
    this.count = Number(n.rows[0]!.n);
    this.at = now;
    this.admittedSince = 0;
    return this.count >= max;
  }

  admitted(): void {
    this.admittedSince += 1;
  }
}
