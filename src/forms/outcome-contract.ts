/** The contract an outcome line names (README "outcome/1"). */
export const OUTCOME_CONTRACT = 'outcome/1';
/** Signed bytes are this prefix and the canonical outcome, so the signature means nothing elsewhere. */
export const OUTCOME_SIGNING_PREFIX = 'gate outcome/1\n';
