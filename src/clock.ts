/** Time is injected so TTLs, expiry and cursors can be tested without sleeping (docs/architecture.md#rules-of-the-house, rule 7). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
