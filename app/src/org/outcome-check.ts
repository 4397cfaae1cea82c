import canonicalize from 'canonicalize';
import { OUTCOME_CONTRACT, OUTCOME_SIGNING_PREFIX } from '../../../src/forms/outcome-contract.js';
import { verifyEventSignature } from '../../../src/forms/portable-verify.js';
import type { EventCheck } from '../event-check.js';

// An outcome line checked in this page as its member checks it when it pulls
// (src/forms/outcome-line.ts): the org's Ed25519 signature over the prefix and the canonical
// line without seq and sig, against the org's deployment id; and the line must say what the
// org's log says was decided.

export async function checkOutcomeLine(orgId: string, line: Record<string, unknown> | null, logged: { type: string; artifact_id: string; authority_class: string }): Promise<EventCheck> {
  if (line === null) return { state: 'failed', why: 'no signed line was kept for this decision' };
  const { seq: _seq, sig, ...outcome } = line;
  if (typeof sig !== 'string' || outcome['contract'] !== OUTCOME_CONTRACT) return { state: 'failed', why: 'it is not an outcome/1 line' };
  if (outcome['org_deployment_id'] !== orgId) return { state: 'failed', why: 'it names another organization' };
  try {
    if (!(await verifyEventSignature(orgId, OUTCOME_SIGNING_PREFIX + canonicalize(outcome), sig))) return { state: 'failed', why: "the signature does not hold for the organization's key" };
  } catch {
    return { state: 'failed', why: 'the signature is malformed' };
  }
  for (const key of ['type', 'artifact_id', 'authority_class'] as const) {
    if (outcome[key] !== logged[key]) return { state: 'failed', why: `the signed line says another ${key} than the log` };
  }
  return { state: 'verified' };
}
