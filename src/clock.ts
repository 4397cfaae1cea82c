/** Time is injected so TTLs, expiry and cursors can be tested without sleeping (DESIGN rule 7). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
