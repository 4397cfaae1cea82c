import type { RemoteJWKSet } from 'jose';
import { jose } from './sign-in-support.js';
import { CredentialError } from './credential-error.js';

const DISCOVERY_TIMEOUT_MS = 5_000;
/** A discovery document is read again after this long; a failure is not retried sooner than the cooldown. */
const DISCOVERY_MAX_AGE_MS = 3_600_000;
const FAILURE_COOLDOWN_MS = 5_000;

interface Known {
  keys: RemoteJWKSet;
  readAt: number;
}

/** Where a browser signs a person in at an issuer (its discovery document's endpoints). */
export interface SignInEndpoints {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
}

interface Discovered {
  jwksUri: URL;
  signIn: SignInEndpoints | null;
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

/** An endpoint a browser is sent to must be http(s), nothing a page could run. */
const isWebUrl = (text: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/**
 * The key sets of external issuers listed in `[auth].trusted_issuers`: each issuer's
 * discovery document names its jwks_uri, read through jose's remote key set, which caches
 * keys, refetches on an unknown kid and cools down between fetches.
 */
export class TrustedIssuers {
  private readonly known = new Map<string, Known>();
  private readonly failedAt = new Map<string, number>();
  private readonly signIns = new Map<string, { endpoints: SignInEndpoints | null; readAt: number }>();
  private readonly listed: ReadonlySet<string>;

  constructor(issuers: readonly string[]) {
    this.listed = new Set(issuers);
  }

  get size(): number {
    return this.listed.size;
  }

  trusts(iss: string): boolean {
    return this.listed.has(iss);
  }

  /** The issuers listed, in the order the config gives them. */
  get issuers(): string[] {
    return [...this.listed];
  }

  /** The issuer's key set; CredentialError `unavailable` when its discovery document cannot be read. */
  async keySet(iss: string): Promise<RemoteJWKSet> {
    const now = Date.now();
    const known = this.known.get(iss);
    if (known !== undefined && now - known.readAt < DISCOVERY_MAX_AGE_MS) return known.keys;
    const failed = this.failedAt.get(iss);
    if (failed !== undefined && now - failed < FAILURE_COOLDOWN_MS) {
      if (known !== undefined) return known.keys;
      throw new CredentialError('unavailable', `the issuer ${iss} could not be reached a moment ago`);
    }
    try {
      const keys = jose().createRemoteJWKSet((await this.discover(iss)).jwksUri, { timeoutDuration: DISCOVERY_TIMEOUT_MS });
      this.known.set(iss, { keys, readAt: now });
      this.failedAt.delete(iss);
      return keys;
    } catch (error) {
      this.failedAt.set(iss, now);
      // Keys already known keep verifying while the issuer's discovery is down.
      if (known !== undefined) return known.keys;
      throw error instanceof CredentialError ? error : new CredentialError('unavailable', `the issuer ${iss} could not be reached`);
    }
  }

  /**
   * The issuer's authorization and token endpoints, for a console that signs its people in
   * there (the organization's); null when its discovery names none or cannot be read (a
   * failure is asked again after the cooldown, a success after an hour).
   */
  async signInEndpoints(iss: string): Promise<SignInEndpoints | null> {
    if (!this.listed.has(iss)) return null;
    const now = Date.now();
    const known = this.signIns.get(iss);
    if (known !== undefined && now - known.readAt < (known.endpoints === null ? FAILURE_COOLDOWN_MS : DISCOVERY_MAX_AGE_MS)) return known.endpoints;
    const endpoints = await this.discover(iss).then((d) => d.signIn, () => known?.endpoints ?? null);
    this.signIns.set(iss, { endpoints, readAt: now });
    return endpoints;
  }

  private async discover(iss: string): Promise<Discovered> {
    const res = await fetch(`${stripSlash(iss)}/.well-known/openid-configuration`, {
      redirect: 'error',
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) throw new CredentialError('unavailable', `the issuer ${iss} answered ${res.status} to discovery`);
    const document = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown; authorization_endpoint?: unknown; token_endpoint?: unknown };
    if (document.issuer !== iss) throw new CredentialError('unavailable', `the discovery document of ${iss} names another issuer`);
    if (typeof document.jwks_uri !== 'string') throw new CredentialError('unavailable', `the discovery document of ${iss} has no jwks_uri`);
    const { authorization_endpoint: authorize, token_endpoint: token } = document;
    const signIn = typeof authorize === 'string' && typeof token === 'string' && isWebUrl(authorize) && isWebUrl(token) ? { issuer: iss, authorization_endpoint: authorize, token_endpoint: token } : null;
    return { jwksUri: new URL(document.jwks_uri), signIn };
  }
}
