import type { Clock } from '../clock.js';

export interface LoginThrottleOptions {
  slowAfter: number;
  refuseAfter: number;
  windowMs: number;
  delayMs: number;
}

export type LoginVerdict = { refused: true; retryAfterS: number } | { refused: false; delayMs: number };

/** One client address stands for many emails (a shared NAT, a script trying a list), so it gets this many times the room. */
const CLIENT_FACTOR = 4;
const MAX_DELAY_MS = 8_000;
const MAX_TRACKED = 50_000;

interface Failures {
  count: number;
  since: number;
}

/**
 * Wrong passwords counted per email and per client address over a window: past
 * `slowAfter` each attempt waits longer (doubling), past `refuseAfter` sign-in answers 429
 * with Retry-After until the window ends. Counted for any email typed, whether or not it
 * names a person, so the throttle tells nothing about who exists.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly options: LoginThrottleOptions,
    private readonly clock: Clock,
  ) {}

  private current(key: string, now: number): Failures | undefined {
    const f = this.failures.get(key);
    if (f !== undefined && now - f.since >= this.options.windowMs) {
      this.failures.delete(key);
      return undefined;
    }
    return f;
  }

  /** Decides before the password is checked: refuse, or wait this long first. */
  check(email: string, client: string): LoginVerdict {
    const now = this.clock.now();
    const byEmail = this.current(`email:${email}`, now);
    const byClient = this.current(`client:${client}`, now);
    const over = (f: Failures | undefined, factor: number) => f !== undefined && f.count >= this.options.refuseAfter * factor;
    const refusing = [over(byEmail, 1) ? byEmail : undefined, over(byClient, CLIENT_FACTOR) ? byClient : undefined].filter(
      (f): f is Failures => f !== undefined,
    );
    if (refusing.length > 0) {
      const until = Math.max(...refusing.map((f) => f.since + this.options.windowMs));
      return { refused: true, retryAfterS: Math.max(1, Math.ceil((until - now) / 1000)) };
    }
    const excess = Math.max(
      (byEmail?.count ?? 0) - this.options.slowAfter,
      (byClient?.count ?? 0) - this.options.slowAfter * CLIENT_FACTOR,
    );
    if (excess < 0) return { refused: false, delayMs: 0 };
    return { refused: false, delayMs: Math.min(MAX_DELAY_MS, this.options.delayMs * 2 ** Math.min(excess, 16)) };
  }

  failed(email: string, client: string): void {
    const now = this.clock.now();
    if (this.failures.size >= MAX_TRACKED) {
      for (const [key, f] of this.failures) if (now - f.since >= this.options.windowMs) this.failures.delete(key);
    }
    for (const key of [`email:${email}`, `client:${client}`]) {
      const f = this.current(key, now);
      if (f === undefined) this.failures.set(key, { count: 1, since: now });
      else f.count += 1;
    }
  }

  /** A right password clears the email's count; the client's stays (it may be trying many emails). */
  succeeded(email: string): void {
    this.failures.delete(`email:${email}`);
  }
}
