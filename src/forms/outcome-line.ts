import { canonicalJson } from './canonical-json.js';
import { verifyWithDeploymentId } from './ed25519.js';
import { OUTCOME_CONTRACT, OUTCOME_SIGNING_PREFIX } from './outcome-contract.js';

/**
 * Who decided, by signer class: human (a person at the org), agent (the holder of an org
 * review or admin key: a program), deployment (an org policy).
 */
export type AuthorityClass = 'human' | 'agent' | 'deployment';

// Apart, so a page can check a line without this module's node:crypto (the org's console).
export { OUTCOME_CONTRACT, OUTCOME_SIGNING_PREFIX };

/** What the org signs: content-free, naming the row, the member, the org and who decided. */
export interface Outcome {
  contract: typeof OUTCOME_CONTRACT;
  type: 'countersign' | 'refuse';
  artifact_id: string;
  submission_id: string;
  member_deployment_id: string;
  org_deployment_id: string;
  /** The deciding authority's signer class: human (a person at the org), agent (an org key's holder) or deployment (an org policy). */
  authority_class: AuthorityClass;
  ts: number;
}

/** A line of GET /outcomes: the outcome, its cursor (seq, not signed: a position, not a claim) and the org's signature. */
export type OutcomeLine = Outcome & { seq: number; sig: string };

export function signOutcome(key: { sign(data: string): string }, outcome: Outcome): string {
  return key.sign(OUTCOME_SIGNING_PREFIX + canonicalJson(outcome));
}

/** Checks a line against the org key a member pinned; answers the outcome without seq and sig. */
export function verifyOutcomeLine(line: Record<string, unknown>, orgDeploymentId: string): Outcome | null {
  const { seq: _seq, sig, ...outcome } = line;
  if (typeof sig !== 'string' || outcome['contract'] !== OUTCOME_CONTRACT || outcome['org_deployment_id'] !== orgDeploymentId) return null;
  try {
    return verifyWithDeploymentId(orgDeploymentId, OUTCOME_SIGNING_PREFIX + canonicalJson(outcome), sig) ? (outcome as unknown as Outcome) : null;
  } catch {
    return null;
  }
}
