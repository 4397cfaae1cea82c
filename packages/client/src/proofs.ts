/**
 * The client library's proof checks alone: checkpoints, inclusion and consistency proofs,
 * answers carrying them, published collections. Nothing here imports Node: a browser bundle (the console) imports
 * this module, where the whole client (its socket transport) would not bundle.
 */
export { verifyCheckpoint, type VerifiedCheckpoint } from './checkpoint-check.js';
export { provenKeys, type ProvenKeys } from './key-chain-check.js';
export { verifyInclusion, verifyConsistency, type InclusionProofJson } from './merkle-check.js';
export { verifyEventProofs, verifyCheckpointAnswer } from './answer-proofs.js';
export { verifyCollection, type VerifiedCollection } from './collection-check.js';
export type { CollectionHeader, CollectionRow } from './forms/collection-form.js';
export { ProofError, type ProofErrorCode } from './proof-error.js';
