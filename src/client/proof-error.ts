/**
 * Why a proof was refused, by a stable code: `malformed` (not the shape of a checkpoint or
 * proof), `wrong_log` (another deployment's log, or a leaf past the checkpoint), `signature`
 * (the deployment's signature does not verify), `inclusion` (the audit path does not lead
 * to the checkpoint's root) and `consistency` (the older tree is not a prefix of the newer).
 */
export type ProofErrorCode = 'malformed' | 'wrong_log' | 'signature' | 'inclusion' | 'consistency';

export class ProofError extends Error {
  constructor(
    readonly code: ProofErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProofError';
  }
}
