import type { Clock } from './clock.js';

/**
 * A circuit per backend: after `failures` failed calls in a row it opens and calls are
 * blocked for `openMs`; then one trial call is let through (half-open), and a success
 * closes it again while a failure opens it for another period.
 */
export class Circuit {
  private consecutive = 0;
  private openUntil = 0;
  private trialInFlight = false;

  constructor(
    private readonly failures: number,
    private readonly openMs: number,
    private readonly clock: Clock,
  ) {}

  /** Null when a call may go now; otherwise why not. Taking the half-open trial reserves it. */
  admit(): string | null {
    if (this.consecutive < this.failures) return null;
    const now = this.clock.now();
    if (now < this.openUntil) return `the circuit is open after ${this.consecutive} failed calls, until ${new Date(this.openUntil).toISOString()}`;
    if (this.trialInFlight) return 'the circuit is half-open and a trial call is in flight';
    this.trialInFlight = true;
    return null;
  }

  /** Why calls are blocked now, without taking the trial. */
  get blocked(): string | null {
    if (this.consecutive < this.failures) return null;
    const now = this.clock.now();
    return now < this.openUntil ? `the circuit is open until ${new Date(this.openUntil).toISOString()}` : null;
  }

  /** The admitted call was never made (the budget stopped it): its half-open trial is given back. */
  abandon(): void {
    this.trialInFlight = false;
  }

  succeeded(): void {
    this.consecutive = 0;
    this.trialInFlight = false;
  }

  failed(): void {
    this.consecutive += 1;
    this.trialInFlight = false;
    if (this.consecutive >= this.failures) this.openUntil = this.clock.now() + this.openMs;
  }
}
