/** Lifetimes of the sign-in provider's credentials (spec 1 Limits). */
export const CODE_LIFETIME_MS = 60_000;
export const ACCESS_TOKEN_SECONDS = 3600;
export const ANSWER_TICKET_SECONDS = 300;
export const REFRESH_TOKEN_MS = 30 * 86_400_000;
/** Clock skew accepted on exp and nbf of a person's token (FACTS: 60 s). */
export const TOKEN_CLOCK_TOLERANCE_S = 60;
/** An agent's own assertion (FACTS): at most 300 s from iat to exp, 30 s of clock skew. */
export const ASSERTION_MAX_SECONDS = 300;
export const ASSERTION_CLOCK_TOLERANCE_S = 30;
