import { createHash } from 'node:crypto';

/**
 * Requests in flight per credential (one Authorization header), so one busy client meets
 * 429 before it can take the whole `server.max_in_flight` from everyone else. The header
 * is held only as a hash.
 */
export class CredentialInFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a place for the credential; null when it already has `max` in flight. */
  enter(header: string): (() => void) | null {
    const key = createHash('sha256').update(header).digest('base64url');
    const n = this.counts.get(key) ?? 0;
    if (n >= this.max) return null;
    this.counts.set(key, n + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.counts.get(key) ?? 1) - 1;
      if (now === 0) this.counts.delete(key);
      else this.counts.set(key, now);
    };
  }
}
