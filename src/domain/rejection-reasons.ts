/** The categories a rejection is filed under: a refused submitter is told one of these five. */
export const REJECT_CATEGORIES = ['off-scope', 'quality', 'policy', 'duplicate', 'unreadable'] as const;
export type RejectCategory = (typeof REJECT_CATEGORIES)[number];

/**
 * What a row event's `reason` may hold: a closed word (a category, an expiry, a veto, a
 * reviewer's plain rejection, a cancel). A person's own words travel as `words` and stay in
 * the journal; a reason outside this set (written before that rule) is served by no verb.
 */
const CLOSED_REASONS: ReadonlySet<string> = new Set<string>([...REJECT_CATEGORIES, 'expired', 'vetoed', 'rejected', 'cancelled']);

export const isClosedReason = (value: unknown): value is string => typeof value === 'string' && CLOSED_REASONS.has(value);
