/**
 * A second authority that is really second, and erasure that reaches the organization
 * (docs/organization.md "Who counts at the organization", "Erasure at a member"):
 * - `waiting_decisions`: decisions by people the organization cannot tell apart from the
 *   member's people, waiting for enough others (JSON array: decision, by, ts, submission_id,
 *   unmatched, category, reason); cleared when the row is decided or its body replaced.
 * - `erased_at`, `retraction`: the member erased the row's content and said so in a signed
 *   retraction (kept verbatim, JSON); the body no longer holds the bytes.
 * - state `retracted`: an undecided submission whose content the member erased; it leaves
 *   the inbox for good.
 * - an index of holds by holder: taking is one submission at a time now, and a reviewer's
 *   own hold comes back first.
 */
export const MIGRATION_003 = `
ALTER TABLE submissions DROP CONSTRAINT submissions_state_check;
ALTER TABLE submissions ADD CONSTRAINT submissions_state_check CHECK (state IN ('leased', 'held', 'countersigned', 'refused', 'retracted'));
ALTER TABLE submissions ADD COLUMN waiting_decisions text;
ALTER TABLE submissions ADD COLUMN erased_at timestamptz;
ALTER TABLE submissions ADD COLUMN retraction text;
-- A reviewer's own holds, which gv.org_take answers first, found without reading the inbox.
CREATE INDEX submissions_held_by ON submissions (held_by) WHERE state = 'held';
`;
