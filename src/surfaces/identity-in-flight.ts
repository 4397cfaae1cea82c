/**
 * Requests in flight per caller identity, counted after the credential is resolved, so
 * every spelling of one key (the bearer scheme is case-insensitive) and every keyless
 * loopback request share one count. One identity meets 429 before it can take more than
 * its share of `server.max_in_flight` from everyone else.
 */
export class IdentityInFlight {
  private readonly counts = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes a place for the identity; null when it already has `max` in flight. The returned release is idempotent. */
  enter(identity: string): (() => void) | null {
    const n = this.counts.get(identity) ?? 0;
    if (n >= this.max) return null;
    this.counts.set(identity, n + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.counts.get(identity) ?? 1) - 1;
      if (now === 0) this.counts.delete(identity);
      else this.counts.set(identity, now);
    };
  }
}

/**
 * The most one identity may hold: the configured per-identity limit, and never more than a
 * quarter of the global limit whatever the configuration says, so at least three other
 * identities always find room (at least 1, so a tiny global limit still serves anyone).
 */
export function identityShare(perIdentity: number, total: number): number {
  return Math.min(perIdentity, Math.max(1, Math.floor(total / 4)));
}
