import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { jose } from './sign-in-support.js';
import { CredentialError } from './credential-error.js';

/** Headers that would let a token name its own key: never honoured. */
const SELF_KEYED_HEADERS = ['jku', 'x5u', 'jwk', 'x5c', 'crit'];

/**
 * A bearer JWT's header and claims read before its signature is checked, to choose the key
 * that checks it; one naming its own key is refused here. `what` names the token in the
 * refusal ("a token", "an assertion").
 */
export function readUnverifiedJwt(token: string, what: string): { header: ProtectedHeaderParameters; claims: JWTPayload } {
  const { decodeJwt, decodeProtectedHeader } = jose();
  let header: ProtectedHeaderParameters;
  let claims: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    throw new CredentialError('malformed', 'the bearer is not a decodable JWT');
  }
  const named = SELF_KEYED_HEADERS.find((h) => h in header);
  if (named !== undefined) throw new CredentialError('unsupported', `${what} naming its own key (${named} header) is not accepted`);
  return { header, claims };
}
