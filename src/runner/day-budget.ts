import type { SpentOnDay } from './budget-state-file.js';

/** The UTC day of a moment, YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Where the day's spending outlives the process: read once at start, written as it grows. */
export interface SpendingStore {
  load(): SpentOnDay | null;
  save(spent: SpentOnDay): void;
}

/**
 * The day's budget in seconds of crew command time (`budget_per_day`, docs/runners.md): what ended
 * today, plus what is running now, against the settings' figure; a new UTC day starts at 0.
 * With a store, a restart on the same day starts from what the store kept; another day's
 * figure counts for nothing.
 */
export class DayBudget {
  private day: string;
  private spentMs = 0;

  constructor(
    private readonly store: SpendingStore | null = null,
    now = Date.now(),
  ) {
    this.day = utcDay(now);
    const kept = store?.load() ?? null;
    if (kept !== null && kept.day === this.day) this.spentMs = kept.spentMs;
  }

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
    this.store?.save({ day: this.day, spentMs: this.spentMs });
  }

  /**
   * Keeps the running commands' time so far too, so a runner killed mid-command does not
   * forget it: the figure a restart starts from. The command's end then counts its whole time.
   */
  checkpoint(runningMs: number, now = Date.now()): void {
    if (runningMs <= 0) return;
    this.roll(now);
    this.store?.save({ day: this.day, spentMs: this.spentMs + runningMs });
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
