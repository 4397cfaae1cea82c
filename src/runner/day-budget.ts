/** The UTC day of a moment, YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The day's budget in seconds of crew command time (spec 2 `budget_per_day`): what ended
 * today, plus what is running now, against the settings' figure; a new UTC day starts at 0.
 */
export class DayBudget {
  private day = utcDay(Date.now());
  private spentMs = 0;

  private roll(now: number): void {
    const today = utcDay(now);
    if (today !== this.day) {
      this.day = today;
      this.spentMs = 0;
    }
  }

  spend(ms: number, now = Date.now()): void {
    this.roll(now);
    this.spentMs += ms;
  }

  /** Whole seconds spent today, counting the running commands' time so far. */
  spent(runningMs: number, now = Date.now()): number {
    this.roll(now);
    return Math.floor((this.spentMs + runningMs) / 1000);
  }

  report(of: number, runningMs: number, now = Date.now()): { day: string; spent: number; of: number } {
    return { day: (this.roll(now), this.day), spent: this.spent(runningMs, now), of };
  }
}
