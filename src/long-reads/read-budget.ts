import type { Clock } from '../clock.js';

/** A window is counted in this many slots: a charge leaves the window a slot's length at most late. */
const SLOTS = 20;
/** Past this many identities, those with nothing left in their window are forgotten at the next charge. */
const FORGET_PAST = 1_024;

interface Spent {
  /** Slot numbers (clock ms / slot length) with what was charged in each, oldest first. */
  slots: Array<{ slot: number; ms: number }>;
}

/**
 * Main-thread milliseconds each identity's long reads took within a sliding window
 * (`server.long_read_budget_ms` a `server.long_read_window_s`). The window moves with the
 * gate's clock; what a read took is measured by the long read itself, chunk by chunk.
 */
export class ReadBudget {
  private readonly slotMs: number;
  private readonly spent = new Map<string, Spent>();

  constructor(
    readonly budgetMs: number,
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {
    this.slotMs = Math.max(1, Math.ceil(windowMs / SLOTS));
  }

  charge(identity: string, ms: number): void {
    if (!(ms > 0)) return;
    const slot = Math.floor(this.clock.now() / this.slotMs);
    let spent = this.spent.get(identity);
    if (spent === undefined) {
      if (this.spent.size >= FORGET_PAST) this.forgetIdle(slot);
      this.spent.set(identity, (spent = { slots: [] }));
    }
    const last = spent.slots[spent.slots.length - 1];
    if (last !== undefined && last.slot === slot) last.ms += ms;
    else spent.slots.push({ slot, ms });
  }

  /** Milliseconds this identity's long reads took within the window ending now. */
  spentMs(identity: string): number {
    const spent = this.current(identity);
    return spent === undefined ? 0 : spent.slots.reduce((sum, s) => sum + s.ms, 0);
  }

  /**
   * null while the identity is within its budget; once it has spent it, how long until
   * enough of what it spent leaves the window to bring it back under (at least one slot).
   */
  retryAfterMs(identity: string): number | null {
    const spent = this.current(identity);
    if (spent === undefined) return null;
    let total = spent.slots.reduce((sum, s) => sum + s.ms, 0);
    if (total < this.budgetMs) return null;
    const now = this.clock.now();
    for (const s of spent.slots) {
      total -= s.ms;
      if (total < this.budgetMs) return Math.max(1, (s.slot + SLOTS) * this.slotMs - now);
    }
    return this.windowMs;
  }

  /** The identity's slots still inside the window (older ones dropped). */
  private current(identity: string): Spent | undefined {
    const spent = this.spent.get(identity);
    if (spent === undefined) return undefined;
    const oldest = Math.floor(this.clock.now() / this.slotMs) - SLOTS;
    while (spent.slots.length > 0 && spent.slots[0]!.slot <= oldest) spent.slots.shift();
    if (spent.slots.length === 0) {
      this.spent.delete(identity);
      return undefined;
    }
    return spent;
  }

  private forgetIdle(slot: number): void {
    for (const [identity, spent] of this.spent) {
      if (spent.slots[spent.slots.length - 1]!.slot <= slot - SLOTS) this.spent.delete(identity);
    }
  }
}
