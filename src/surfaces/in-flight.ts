/** Counts requests being handled, so shutdown can wait for them and overload can refuse. */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  enter(): void {
    this.count += 1;
  }

  leave(): void {
    this.count -= 1;
    if (this.count === 0) for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when nothing is in flight, or after the deadline, whichever comes first. */
  idle(deadlineMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, deadlineMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
