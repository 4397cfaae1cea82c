import type { Clock } from '../clock.js';

export interface LoginThrottleOptions {
  slowAfter: number;
  refuseAfter: number;
  windowMs: number;
  delayMs: number;
}

export type LoginVerdict = { refused: true; retryAfterS: number } | { refused: false; delayMs: number };

/** Who is trying: the email typed, the client's address, and the device, when it presents a valid device cookie for that email's person. */
export interface Attempt {
  email: string;
  client: string;
  device?: string | undefined;
}

/** One client address stands for many emails (a shared NAT, a script trying a list), so it gets this many times the room. */
const CLIENT_FACTOR = 4;
const MAX_DELAY_MS = 8_000;
const MAX_TRACKED = 50_000;

interface Failures {
  count: number;
  since: number;
}

/**
 * Wrong passwords counted over a window: past `slowAfter` each attempt waits longer
 * (doubling), past `refuseAfter` sign-in answers 429 with Retry-After until the window ends.
 *
 * An attempt from a known device (a valid device cookie for the person whose email it types,
 * device-cookies.ts) is counted by that device alone, and only that device's failures slow or
 * refuse it: strangers failing at the person's email, or from the same address (everyone
 * behind one proxy or NAT), never lock out a browser the person signed in with before. Any
 * other attempt is counted per email (any email typed, whether or not it names a person, so
 * the throttle tells nothing about who exists) and per client address (4x the room).
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

  /** The counts that decide an attempt, each with the room it has (the factor on the limits). */
  private counts(a: Attempt): Array<[string, number]> {
    return a.device !== undefined ? [[`device:${a.device}`, 1]] : [[`email:${a.email}`, 1], [`client:${a.client}`, CLIENT_FACTOR]];
  }

  /** Decides before the password is checked: refuse, or wait this long first. */
  check(a: Attempt): LoginVerdict {
    const now = this.clock.now();
    const counted = this.counts(a).map(([key, factor]) => ({ f: this.current(key, now), factor }));
    const refusing = counted.filter(({ f, factor }) => f !== undefined && f.count >= this.options.refuseAfter * factor).map(({ f }) => f!);
    if (refusing.length > 0) {
      const until = Math.max(...refusing.map((f) => f.since + this.options.windowMs));
      return { refused: true, retryAfterS: Math.max(1, Math.ceil((until - now) / 1000)) };
    }
    const excess = Math.max(...counted.map(({ f, factor }) => (f?.count ?? 0) - this.options.slowAfter * factor));
    if (excess < 0) return { refused: false, delayMs: 0 };
    return { refused: false, delayMs: Math.min(MAX_DELAY_MS, this.options.delayMs * 2 ** Math.min(excess, 16)) };
  }

  failed(a: Attempt): void {
    const now = this.clock.now();
    if (this.failures.size >= MAX_TRACKED) {
      for (const [key, f] of this.failures) if (now - f.since >= this.options.windowMs) this.failures.delete(key);
    }
    for (const [key] of this.counts(a)) {
      const f = this.current(key, now);
      if (f === undefined) this.failures.set(key, { count: 1, since: now });
      else f.count += 1;
    }
  }

  /**
   * A right password clears what counted it: the device's count, or the email's (the
   * client's stays: it may be trying many emails). A known device's sign-in leaves the
   * email's count alone, so a stranger guessing at it stays slowed.
   */
  succeeded(a: Attempt): void {
    this.failures.delete(a.device !== undefined ? `device:${a.device}` : `email:${a.email}`);
  }
}
