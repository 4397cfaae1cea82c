/**
 * Bytes of request bodies held at once, across every request and per identity. Each body
 * is counted from before it is read until its answer is sent (the handler holds it, and
 * what it derives from it, that long), so the memory concurrent requests take is bounded
 * by the budget rather than by the count of requests in flight.
 */
export class BodyBudget {
  private held = 0;
  private readonly byIdentity = new Map<string, number>();

  constructor(
    readonly total: number,
    readonly perIdentity: number,
  ) {}

  get bytesHeld(): number {
    return this.held;
  }

  /**
   * Counts `n` more bytes for the identity: `identity` when that would pass its share
   * (its own doing: 429), `total` when it would pass the budget (everyone's: 503).
   */
  take(identity: string, n: number): 'ok' | 'identity' | 'total' {
    const mine = this.byIdentity.get(identity) ?? 0;
    if (mine + n > this.perIdentity) return 'identity';
    if (this.held + n > this.total) return 'total';
    this.held += n;
    this.byIdentity.set(identity, mine + n);
    return 'ok';
  }

  give(identity: string, n: number): void {
    if (n === 0) return;
    this.held -= n;
    const mine = (this.byIdentity.get(identity) ?? n) - n;
    if (mine <= 0) this.byIdentity.delete(identity);
    else this.byIdentity.set(identity, mine);
  }
}

/**
 * One identity's bytes: the configured share, never more than a quarter of the budget (so
 * one identity's bodies never take it all; see identityShare), and never less than one
 * request of the size limit, which would otherwise never be served.
 */
export function bodyBytesShare(perIdentity: number, total: number, largestRequest: number): number {
  return Math.max(largestRequest, Math.min(perIdentity, Math.floor(total / 4)));
}
