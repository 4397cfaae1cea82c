import { createPublicKey, type KeyObject } from 'node:crypto';
import { ed25519KeyTextProblem, jwsHoldsStrictly } from '../forms/strict-ed25519.js';
import type { JWTPayload } from 'jose';
import { jose } from '../credentials/sign-in-support.js';
import type { Clock } from '../clock.js';
import type { ApiKeyCredential, ApiKeyReads } from '../projections/api-key-reads.js';
import { CredentialError } from '../credentials/credential-error.js';
import { credentialErrorOf } from '../credentials/person-tokens.js';
import { readUnverifiedJwt } from '../credentials/unverified-jwt.js';
import { ASSERTION_CLOCK_TOLERANCE_S, ASSERTION_MAX_SECONDS } from './sign-in-lifetimes.js';

/** The issuer (and subject) an agent names in its own assertion: its key's identity. */
export const ASSERTION_ISSUER = /^key:([0-9a-f]{12})$/;

export type AssertingKey = ApiKeyCredential;

/** Whether a JWT's (unverified) issuer says it is an agent's own assertion rather than a person's token. */
export function isAgentAssertion(payload: JWTPayload): boolean {
  return typeof payload.iss === 'string' && payload.iss.startsWith('key:');
}

/**
 * An agent's short-lived assertion (docs/sign-in.md#an-agents-own-assertion): an RFC 9068 access
 * token the agent mints itself, signed with the Ed25519 key it bound to its API key
 * (gv.assertion_key). `iss` and `sub` are its identity `key:<key_id>`, `aud` this gate's
 * deployment id (so an assertion for one gate is refused by another), `client_id` its key
 * id, `iat`, `exp` at most 300 s later, `jti`; header `typ: at+jwt`, `alg: EdDSA`, and
 * `kid`, when sent, the key id. A token naming its own key (`jku`, `x5u`, `jwk`, `x5c`,
 * `crit`) is refused before anything is looked up. Every refusal is a CredentialError
 * (401 with its kind). Verified on every request against the key's row, so a revocation
 * or a new binding counts from the next request.
 */
export class AgentAssertions {
  private readonly keys = new Map<string, KeyObject>();

  constructor(
    private readonly apiKeys: ApiKeyReads,
    private readonly audience: string,
    private readonly clock: Clock,
  ) {}

  async verify(token: string): Promise<AssertingKey> {
    const { jwtVerify } = jose();
    const { header, claims: unverified } = readUnverifiedJwt(token, 'an assertion');
    if (header.alg !== 'EdDSA') throw new CredentialError('unsupported', 'an assertion is signed EdDSA (Ed25519)');
    const keyId = ASSERTION_ISSUER.exec(String(unverified.iss))?.[1];
    if (keyId === undefined) throw new CredentialError('malformed', 'an assertion names its issuer as key:<key_id>');
    if (header.kid !== undefined && header.kid !== keyId) throw new CredentialError('malformed', "the assertion's kid is not its issuer's key id");
    const row = this.apiKeys.assertionKeyOf(keyId);
    if (row === undefined || row.revoked_at !== null) throw new CredentialError('signature', 'the key is not one this gate holds, or it was revoked');
    if (row.expires_at !== null && row.expires_at <= this.clock.now()) throw new CredentialError('expired', 'the key has expired');
    if (row.assertion_key === null) throw new CredentialError('signature', 'no assertion key is bound to this key (gv.assertion_key)');
    // A key bound before weak keys were refused at binding is refused here.
    if (ed25519KeyTextProblem(row.assertion_key) !== null) throw new CredentialError('signature', 'the bound assertion key is a weak Ed25519 key; bind another');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey(row.assertion_key), {
        issuer: `key:${keyId}`,
        subject: `key:${keyId}`,
        audience: this.audience,
        algorithms: ['EdDSA'],
        typ: 'at+jwt',
        clockTolerance: ASSERTION_CLOCK_TOLERANCE_S,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp', 'iat', 'jti', 'client_id'],
      }));
    } catch (error) {
      throw credentialErrorOf(error);
    }
    // jose verifies with node:crypto, which has no strict mode; the signature must also hold under RFC 8032's strict rules.
    if (!jwsHoldsStrictly(token, Buffer.from(row.assertion_key, 'base64url'))) throw new CredentialError('signature', 'the signature does not verify');
    if (payload['client_id'] !== keyId) throw new CredentialError('malformed', "the assertion's client_id is not its key id");
    const now = this.clock.now() / 1000;
    if (payload.iat! > now + ASSERTION_CLOCK_TOLERANCE_S) throw new CredentialError('expired', 'the assertion is not valid yet (iat is ahead of this clock)');
    if (payload.exp! - payload.iat! > ASSERTION_MAX_SECONDS) {
      throw new CredentialError('unsupported', `an assertion lives at most ${ASSERTION_MAX_SECONDS} s from iat to exp`);
    }
    return row;
  }

  /** The bound public key (base64url of its 32 raw bytes), as a KeyObject, made once per binding. */
  private publicKey(x: string): KeyObject {
    let key = this.keys.get(x);
    if (key === undefined) {
      key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
      this.keys.set(x, key);
    }
    return key;
  }
}
