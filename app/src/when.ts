/** An ISO 8601 time in UTC (as the organization's rows carry their times) as a person reads it. */
export const whenIso = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

/** A journal time (ms since the epoch) as a person reads it, in UTC like the journal. */
export const when = (ts: unknown): string => (typeof ts === 'number' ? whenIso(new Date(ts).toISOString()) : String(ts ?? ''));
