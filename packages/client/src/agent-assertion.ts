import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { GateClientError } from './client-error.js';

/** The gate refuses an assertion living longer (docs/sign-in.md#an-agents-own-assertion). */
export const ASSERTION_MAX_SECONDS = 300;
/** A cached assertion is minted anew once less than this is left of it. */
const RENEW_BEFORE_S = 60;

export interface AgentAssertionOptions {
  /** The API key's id (12 hex characters): the identity is `key:<keyId>`. */
  keyId: string;
  /** The Ed25519 private key whose public half was bound with gv.assertion_key. */
  privateKey: KeyObject;
  /** The gate's deployment id (gv.ping, GET /identity): the assertion's audience. */
  deploymentId: string;
  /** Seconds from iat to exp, at most 300 (the default). */
  lifetimeS?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: () => number;
}

/** An Ed25519 key pair for assertions: the private key stays with the agent; bind `publicKey` with gv.assertion_key. */
export function assertionKeyPair(): { privateKey: KeyObject; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey: publicKey.export({ format: 'jwk' }).x! };
}

/**
 * Mints an agent's own short-lived assertion: an RFC 9068 access token (`typ: at+jwt`,
 * EdDSA) naming the key as issuer, subject and client, the gate's deployment id as
 * audience, living at most 300 s. Sent as `Authorization: Bearer <assertion>`, the gate
 * takes it as that key's caller on /rpc and /mcp.
 */
export async function mintAgentAssertion(o: AgentAssertionOptions): Promise<string> {
  const lifetime = o.lifetimeS ?? ASSERTION_MAX_SECONDS;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > ASSERTION_MAX_SECONDS) {
    throw new GateClientError('invalid_params', `an assertion lives 1 to ${ASSERTION_MAX_SECONDS} s`);
  }
  if (!/^[0-9a-f]{12}$/.test(o.keyId)) throw new GateClientError('invalid_params', 'keyId is the 12 hex characters of the key id');
  // jose is loaded when an assertion is first minted, so the rest of the client needs none.
  const { SignJWT } = await import('jose').catch(() => {
    throw new GateClientError('config', 'minting an assertion needs the jose package, which this install left out');
  });
  const iat = Math.floor((o.now ?? Date.now)() / 1000);
  return new SignJWT({ client_id: o.keyId, jti: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: o.keyId })
    .setIssuer(`key:${o.keyId}`)
    .setSubject(`key:${o.keyId}`)
    .setAudience(o.deploymentId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetime)
    .sign(o.privateKey);
}

/**
 * A bearer that is a fresh assertion: pass `assertions.bearer` as a client's `bearer`. It
 * mints one, keeps it while more than a minute of it is left, then mints the next; the
 * private key never leaves the process and no long-lived secret travels.
 */
export class AgentAssertions {
  private current: { token: string; expiresAt: number } | null = null;

  constructor(private readonly options: AgentAssertionOptions) {}

  readonly bearer = async (): Promise<string> => {
    const now = (this.options.now ?? Date.now)();
    if (this.current !== null && this.current.expiresAt - now > RENEW_BEFORE_S * 1000) return this.current.token;
    const token = await mintAgentAssertion(this.options);
    this.current = { token, expiresAt: now + (this.options.lifetimeS ?? ASSERTION_MAX_SECONDS) * 1000 };
    return token;
  };
}
