import { z } from 'zod';
import { invalidParams } from '../gate-error.js';
import type { VerbContext } from './define-verb.js';

/** `proof: {nonce, sig}` on an operator-signed verb (docs/protocol.md#operator-proofs). */
export const proofParam = z.strictObject({
  nonce: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a nonce is what gv.challenge answered'),
  sig: z.string().regex(/^[0-9a-fA-F]{128}$/, 'sig is the hex Ed25519 signature (128 hex characters) over the nonce'),
});

export type Proof = z.infer<typeof proofParam>;

/**
 * Spends the caller's proof for an operator-signed act. Answers the operator key to record
 * in the act's journal event, or null when no operator key is configured (nobody can sign,
 * so no proof is asked). Refused -32602 with data.reason proof_required, proof_unknown,
 * proof_expired, proof_replayed or proof_invalid.
 */
export function requireOperatorProof({ caller, auth }: Pick<VerbContext, 'caller' | 'auth'>, proof: Proof | undefined, act: string): string | null {
  if (!auth.operatorProofs.required) return null;
  if (proof === undefined) {
    throw invalidParams(`${act} is operator-signed: send proof {nonce, sig} from a fresh gv.challenge`, { reason: 'proof_required', field: 'proof' });
  }
  const spent = auth.operatorProofs.spend(caller.identity, proof);
  if (!spent.ok) throw invalidParams(spent.why, { reason: spent.reason, field: 'proof' });
  return spent.operatorKey;
}

/** The operator-key field of a proven act's journal event, or nothing when no proof was asked. */
export const provenBy = (operatorKey: string | null) => (operatorKey === null ? {} : { operator_key: operatorKey });
