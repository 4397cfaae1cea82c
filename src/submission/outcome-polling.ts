import type { Clock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';

/** How often the schedule asks whether a pull is due: joining, or a new period, holds within a second. */
export const POLL_CHECK_MS = 1_000;

/**
 * When `gate serve` pulls the organization's outcomes: every [org].poll_every_ms while
 * [org].url is set, both read at each check rather than at start, so a gate joined while
 * running (gate org join, gv.org_join) pulls from its next due time with no restart. The
 * first pull is due one period after start, as before; a failed pull waits a whole period too.
 */
export class OutcomePolling {
  private last: number;

  constructor(
    private readonly house: { readonly config: GateConfig; readonly clock: Clock },
    private readonly pull: () => Promise<unknown>,
  ) {
    this.last = house.clock.now();
  }

  /** The schedule's tick: pulls when one is due (the schedule never overlaps two). */
  async runIfDue(): Promise<void> {
    const { url, poll_every_ms } = this.house.config.org;
    const now = this.house.clock.now();
    if (url === '' || poll_every_ms === 0 || now - this.last < poll_every_ms) return;
    this.last = now;
    await this.pull();
  }

  /** The schedule's tick for a period given at start: often enough for a short period, at most once a second otherwise. */
  static checkEveryMs(config: GateConfig): number {
    const period = config.org.poll_every_ms;
    return period > 0 ? Math.min(POLL_CHECK_MS, period) : POLL_CHECK_MS;
  }
}
