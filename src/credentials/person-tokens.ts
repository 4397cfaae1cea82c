import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { SignInSupportMissing, jose } from './sign-in-support.js';
import type { KeyObject } from 'node:crypto';
import type { Clock } from '../clock.js';
import { CredentialError } from './credential-error.js';
import { readUnverifiedJwt } from './unverified-jwt.js';
import { ed25519KeyProblem, jwsHoldsStrictly, rawEd25519Key } from '../forms/strict-ed25519.js';
import type { TrustedIssuers } from './trusted-issuers.js';

/** Clock skew accepted on exp and nbf of a person's token (60 s: docs/protocol.md#credentials-and-roles). */
export const TOKEN_CLOCK_TOLERANCE_S = 60;

/** Algorithms a trusted issuer may sign with: asymmetric only (a shared-secret or `none` token proves nothing). */
const EXTERNAL_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

export interface VerifiedPerson {
  iss: string;
  sub: string;
  claims: JWTPayload;
}

export interface LocalIssuerKey {
  issuer: string;
  publicKey: KeyObject;
}

/** Maps jose's stable error codes to the 401 kinds of docs/protocol.md#credential-errors. */
export function credentialErrorOf(error: unknown): CredentialError {
  if (error instanceof CredentialError) return error;
  if (error instanceof SignInSupportMissing) return new CredentialError('unsupported', error.message);
  const { errors } = jose();
  if (error instanceof errors.JWTExpired) return new CredentialError('expired', 'the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new CredentialError('issuer', 'the token names another issuer');
    if (error.claim === 'aud') return new CredentialError('audience', 'the token is not meant for this gate');
    if (error.claim === 'nbf' || error.claim === 'iat') return new CredentialError('expired', 'the token is not valid yet');
    if (error.claim === 'typ') return new CredentialError('unsupported', 'the token is not an access token (typ at+jwt)');
    return new CredentialError('malformed', `the token's ${error.claim} claim is unusable`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new CredentialError('signature', 'the signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) return new CredentialError('signature', "no key of the issuer matches the token's kid");
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new CredentialError('unsupported', 'the token is signed with an algorithm this gate does not accept');
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError)) {
    return new CredentialError('unavailable', "the issuer's keys could not be read");
  }
  return new CredentialError('malformed', 'the token is not a usable JWT');
}

/**
 * Verifies a person's bearer JWT: from this gate's own issuer (checked against the
 * deployment key) or from a trusted external issuer (against its published keys). Either
 * way: exact iss, aud containing the client id, exp and nbf within 60 s, sub present.
 */
export class PersonTokens {
  constructor(
    private readonly local: LocalIssuerKey | null,
    private readonly trusted: TrustedIssuers,
    private readonly clientId: string,
    private readonly clock: Clock,
  ) {}

  async verify(token: string): Promise<VerifiedPerson> {
    if (this.local === null && this.trusted.size === 0) {
      throw new CredentialError('unsupported', 'sign-in tokens are accepted once a sign-in issuer is configured; this gate has none');
    }
    const { jwtVerify } = jose();
    const { claims: unverified } = readUnverifiedJwt(token, 'a token');
    const iss = unverified.iss;
    if (typeof iss !== 'string') throw new CredentialError('issuer', 'the token names no issuer');
    let key: KeyObject | JWTVerifyGetKey;
    let algorithms: string[];
    let typ: string | undefined;
    if (this.local !== null && iss === this.local.issuer) {
      key = this.local.publicKey;
      algorithms = ['EdDSA'];
      typ = 'at+jwt';
    } else if (this.trusted.trusts(iss)) {
      key = await this.trusted.keySet(iss);
      algorithms = EXTERNAL_ALGORITHMS;
    } else {
      throw new CredentialError('issuer', `tokens from ${iss} are not accepted here`);
    }
    try {
      const { payload, key: used } = await jwtVerify(token, key as JWTVerifyGetKey, {
        issuer: iss,
        audience: this.clientId,
        algorithms,
        ...(typ === undefined ? {} : { typ }),
        clockTolerance: TOKEN_CLOCK_TOLERANCE_S,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp'],
      });
      // jose verifies with node:crypto, which has no strict mode: an issuer's Ed25519 key must be
      // a strong point, and its signature must hold under RFC 8032's strict rules as well.
      // jose names the key only when it found it through a key set; otherwise it is the one given.
      const verifiedWith = used ?? (key as KeyObject);
      const raw = verifiedWith instanceof Uint8Array ? null : rawEd25519Key(verifiedWith);
      if (raw !== null && (ed25519KeyProblem(raw) !== null || !jwsHoldsStrictly(token, raw))) {
        throw new CredentialError('signature', "the signature does not verify strictly, or the issuer's key is a weak Ed25519 key");
      }
      return { iss, sub: payload.sub!, claims: payload };
    } catch (error) {
      throw credentialErrorOf(error);
    }
  }
}
