/** A journal time (ms since the epoch) as a person reads it, in UTC like the journal. */
export const when = (ts: unknown): string => (typeof ts === 'number' ? new Date(ts).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : String(ts ?? ''));
