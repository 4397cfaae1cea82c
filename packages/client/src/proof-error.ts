/**
 * Why a proof was refused, by a stable code: `malformed` (not the shape of a checkpoint,
 * proof or collection), `wrong_log` (another deployment's log, or a leaf past the
 * checkpoint), `signature` (the deployment's signature does not verify), `inclusion` (the
 * audit path does not lead to the root), `consistency` (the older tree is not a prefix of
 * the newer) and `collection` (a published collection does not hold together).
 */
export type ProofErrorCode = 'malformed' | 'wrong_log' | 'signature' | 'inclusion' | 'consistency' | 'collection';

export class ProofError extends Error {
  constructor(
    readonly code: ProofErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProofError';
  }
}
