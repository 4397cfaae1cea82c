/** The contract a submission body names (README "submission/1"). */
export const SUBMISSION_CONTRACT = 'submission/1';
/** Signed bytes are this prefix and the canonical submission, so the signature means nothing elsewhere. */
export const SUBMISSION_SIGNING_PREFIX = 'gate submission/1\n';
