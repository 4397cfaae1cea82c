import type { SignatureRow } from '../projections/review-reads.js';
import type { QuorumCount } from './quorum.js';

/** gv.approval status: the vocabulary of docs/protocol.md#other-state-words. */
export const APPROVAL_STATUSES = [
  'rejected',
  'refused',
  'vetoed',
  'withdrawn',
  'countersigned',
  'human_approved',
  'ai_approved',
  'escalated',
  'pending',
  'not_applicable',
  'cancelled',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * A row's approval status from its state and signatures: a person's rejecting signature
 * is a veto; a promotion a person counted toward is human_approved, else ai_approved; a
 * held row a model rejected is escalated to people. countersigned and refused come from a
 * second authority's outcomes (an org gate's, src/submission/outcome-pull.ts).
 */
export function approvalStatus(state: string, signatures: readonly SignatureRow[], count: QuorumCount): ApprovalStatus {
  const last = (types: readonly string[]) => [...signatures].reverse().find((s) => types.includes(s.type));
  const authority = last(['countersign', 'refuse']);
  if (authority?.type === 'refuse' && state === 'DEMOTED') return 'refused';
  if (authority?.type === 'countersign' && (state === 'ACTIVE' || state === 'SUPERSEDED')) return 'countersigned';
  switch (state) {
    case 'RECORDED':
      return 'not_applicable';
    case 'REJECTED': {
      const how = last(['cancel', 'reject', 'expire', 'manual-sign', 'disposition']);
      if (how?.type === 'cancel') return 'cancelled';
      if ((how?.type === 'manual-sign' || how?.type === 'disposition') && how.class === 'human') return 'vetoed';
      return 'rejected';
    }
    case 'DEMOTED':
    case 'ARCHIVED':
      return 'withdrawn';
    case 'ACTIVE':
    case 'SUPERSEDED':
      return count.signers.some((s) => s.counts && s.class === 'human') ? 'human_approved' : 'ai_approved';
    default:
      return count.model_rejects.length > 0 ? 'escalated' : 'pending';
  }
}
