import type { Caller } from '../access/caller.js';
import type { Clock } from '../clock.js';
import { API_KEY_PATTERN, hashApiKey } from '../credentials/api-keys.js';
import { AgentAssertions, isAgentAssertion, type AssertingKey } from './agent-assertions.js';
import { SIGN_IN_SUPPORT_MISSING, installedJose } from '../credentials/sign-in-support.js';
import { CredentialError } from '../credentials/credential-error.js';
import type { PeopleFile } from './people-file.js';
import type { PersonTokens } from '../credentials/person-tokens.js';
import type { ViewChanges } from '../journal/view-changes.js';
import { API_KEY_EVENTS } from '../projections/api-keys.js';
import type { ApiKeyReads } from '../projections/api-key-reads.js';
import type { PeopleReads } from '../projections/people-reads.js';

export { CredentialError, type CredentialKind } from '../credentials/credential-error.js';

type KeyRow = AssertingKey;

/** The unverified claims of a JWT, or null when they do not decode (the verifier then says why). */
function claimsOf(token: string): Record<string, unknown> | null {
  try {
    return installedJose === null ? null : installedJose.decodeJwt(token);
  } catch {
    return null;
  }
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export interface PersonAuth {
  tokens: PersonTokens;
  /** This gate's own issuer, whose people must still be in the people file. */
  localIssuer: string | null;
  peopleFile: PeopleFile;
  /** `[auth].admins`: iss|sub of people who are admin when the people table names no role. */
  admins: readonly string[];
}

/**
 * Derives the caller of an HTTP request from its Authorization header: an API key (found
 * by hash; a key's row is kept only until an api-key event is applied, so a revocation
 * takes effect on the next request), an agent's
 * own short-lived assertion (the same key's caller, proven by the Ed25519 key bound to it),
 * or a person's sign-in token, whose role comes from the people table, else
 * `[auth].admins`, else reader.
 */
export class BearerAuth {
  private readonly keyByHash: (hash: string) => KeyRow | undefined;
  private readonly assignments: PeopleReads | null;
  private readonly assertions: AgentAssertions;

  constructor(
    /** The store's read models of keys and people (`gate.store`). */
    reads: { apiKeys: ApiKeyReads; people: PeopleReads },
    changes: ViewChanges,
    private readonly clock: Clock,
    deploymentId: string,
    private readonly people: PersonAuth | null = null,
  ) {
    this.assertions = new AgentAssertions(reads.apiKeys, deploymentId, clock);
    this.keyByHash = changes.memoByKey(API_KEY_EVENTS, (hash: string) => reads.apiKeys.credentialByHash(hash));
    this.assignments = people === null ? null : reads.people;
  }

  async callerOf(header: string | undefined, surface: Caller['surface']): Promise<Caller> {
    if (header === undefined || header === '') throw new CredentialError('missing', 'no Authorization header');
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) throw new CredentialError('malformed', 'expected Authorization: Bearer <token>');
    const token = match[1]!;
    if (token.startsWith('gk_')) return this.apiKeyCaller(token, surface);
    if (JWT_SHAPE.test(token)) {
      if (installedJose === null) throw new CredentialError('unsupported', SIGN_IN_SUPPORT_MISSING);
      const claims = claimsOf(token);
      if (claims !== null && isAgentAssertion(claims)) return { ...this.keyCaller(await this.assertions.verify(token), surface), byAssertion: true };
      return this.personCaller(token, surface);
    }
    throw new CredentialError('malformed', 'the bearer is neither an API key nor a token');
  }

  private apiKeyCaller(raw: string, surface: Caller['surface']): Caller {
    if (!API_KEY_PATTERN.test(raw)) throw new CredentialError('malformed', 'an API key is gk_ followed by 43 base64url characters');
    const key = this.keyByHash(hashApiKey(raw));
    if (!key || key.revoked_at !== null) throw new CredentialError('signature', 'the key is not one this gate holds, or it was revoked');
    if (key.expires_at !== null && key.expires_at <= this.clock.now()) throw new CredentialError('expired', 'the key has expired');
    return this.keyCaller(key, surface);
  }

  /** A key's caller, whether it came as the raw key or as its holder's assertion. */
  private keyCaller(key: KeyRow, surface: Caller['surface']): Caller {
    return {
      identity: `key:${key.key_id}`,
      role: key.role,
      kind: 'program',
      scope: key.scope === 'events' || key.scope === 'metrics' ? key.scope : null,
      demo: false,
      surface,
    };
  }

  private async personCaller(token: string, surface: Caller['surface']): Promise<Caller> {
    if (this.people === null || this.assignments === null) {
      throw new CredentialError('unsupported', 'sign-in tokens are accepted once a sign-in issuer is configured; this gate has none');
    }
    const verified = await this.people.tokens.verify(token);
    const sub = verified.sub;
    let iss = verified.iss;
    if (iss === this.people.localIssuer) {
      const person = this.people.peopleFile.localBySubject(sub);
      if (person === undefined) throw new CredentialError('signature', 'the person this token names was removed');
      // A person added before the issuer's URL moved keeps the identity they were added with.
      iss = person.iss;
    }
    const identity = `${iss}|${sub}`;
    const entry = this.assignments.one(iss, sub);
    return {
      identity,
      role: entry?.role ?? (this.people.admins.includes(identity) ? 'admin' : 'reader'),
      kind: 'person',
      scope: null,
      demo: entry?.demo === 1,
      surface,
      ...(typeof verified.claims['sid'] === 'string' ? { session: verified.claims['sid'] } : {}),
    };
  }
}
