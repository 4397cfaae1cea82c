/**
 * The client library's proof checks alone: checkpoints, inclusion and consistency proofs,
 * answers carrying them. Nothing here imports Node: a browser bundle (the console) imports
 * this module, where the whole client (its socket transport) would not bundle.
 */
export { verifyCheckpoint, type VerifiedCheckpoint } from './checkpoint-check.js';
export { verifyInclusion, verifyConsistency, type InclusionProofJson } from './merkle-check.js';
export { verifyEventProofs, verifyCheckpointAnswer } from './answer-proofs.js';
export { ProofError, type ProofErrorCode } from './proof-error.js';
