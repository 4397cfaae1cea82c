/** Lifetimes of the sign-in provider's credentials (docs/protocol.md#limits). */
export const CODE_LIFETIME_MS = 60_000;
export const ACCESS_TOKEN_SECONDS = 3600;
export const ANSWER_TICKET_SECONDS = 300;
export const REFRESH_TOKEN_MS = 30 * 86_400_000;
/** An agent's own assertion (docs/sign-in.md#an-agents-own-assertion): at most 300 s from iat to exp, 30 s of clock skew. */
export const ASSERTION_MAX_SECONDS = 300;
export const ASSERTION_CLOCK_TOLERANCE_S = 30;
