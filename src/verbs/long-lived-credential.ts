import type { Caller } from '../access/caller.js';
import { invalidParams } from '../gate-error.js';

/**
 * What only a long-lived credential (the API key itself, the socket, a person's sign-in) may do:
 * make or bind another credential. An assertion lives at most five minutes; a credential made
 * with it would outlive it until someone revoked it, so whoever held one assertion briefly
 * would hold the key for good.
 */
export function requireLongLivedCredential(caller: Caller, what: string): void {
  if (caller.byAssertion === true) throw invalidParams(`${what} needs the API key itself (Bearer gk_...), never an assertion`, { reason: 'needs_api_key' });
}
