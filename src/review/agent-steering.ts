import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { QuorumCount } from './quorum.js';

/**
 * A steering row is attached to every recall in its work area: it instructs every agent
 * that works there. One an agent wrote (an API key, a socket peer, the keyless /mcp caller:
 * anything but a signed-in person) is therefore never promoted by the deployment on the
 * models' approval alone, in any review mode: a reviewer decides, a person or a program
 * holding a reviewer key, by an approving signature (`gv.sign` approve) or by promoting it
 * (`gv.promote`, `gv.sign` with promote). See docs/review.md.
 */
export function isAgentSteering(row: Pick<ArtifactRow, 'kind' | 'writer_kind'>): boolean {
  return row.kind === 'steering' && row.writer_kind !== 'person';
}

/** Whether a reviewer (not a model, not the deployment) has approved the row in this epoch, their signature counting. */
export function reviewerApproved(count: Pick<QuorumCount, 'signers'>): boolean {
  return count.signers.some((s) => s.counts && (s.class === 'human' || s.class === 'agent'));
}

/** An agent's steering row no reviewer has approved yet: the deployment does not settle it. */
export function waitsForReviewer(row: Pick<ArtifactRow, 'kind' | 'writer_kind'>, count: Pick<QuorumCount, 'signers'>): boolean {
  return isAgentSteering(row) && !reviewerApproved(count);
}

export const AGENT_STEERING_WORDS =
  'a steering row an agent wrote instructs every agent in its work area: it is never promoted automatically; a person or a reviewer key decides (gv.sign approve, gv.promote)';
