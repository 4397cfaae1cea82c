/**
 * Waiters taken in turn by identity: the next one taken is the oldest waiter of the identity
 * after the last one served, so an identity with eight reads waiting is served no more often
 * than one with a single read.
 */
export class FairQueue<T> {
  /** Identities in the order they are served, each with its waiters oldest first. */
  private readonly byIdentity = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(identity: string, item: T): void {
    const waiting = this.byIdentity.get(identity);
    if (waiting === undefined) this.byIdentity.set(identity, [item]);
    else waiting.push(item);
    this.count += 1;
  }

  /** The next waiter, its identity moved to the back of the round; undefined when none waits. */
  shift(): T | undefined {
    for (const [identity, waiting] of this.byIdentity) {
      const item = waiting.shift()!;
      this.byIdentity.delete(identity);
      if (waiting.length > 0) this.byIdentity.set(identity, waiting);
      this.count -= 1;
      return item;
    }
    return undefined;
  }

  /** Takes every waiter out (the part closing), oldest identity first. */
  drain(): T[] {
    const all = [...this.byIdentity.values()].flat();
    this.byIdentity.clear();
    this.count = 0;
    return all;
  }
}
