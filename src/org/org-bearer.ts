import type { Pool } from 'pg';
import { API_KEY_PATTERN, hashApiKey } from '../credentials/api-keys.js';
import { CredentialError } from '../credentials/credential-error.js';
import type { PersonTokens } from '../credentials/person-tokens.js';
import type { OrderedRole } from '../domain/roles.js';
import { roleOfPerson } from './org-people.js';
import { RoundTripBatch } from './round-trip-batch.js';

/** A member gate, by the submit key the organization issued it: it opens /submissions and /outcomes only. */
export interface OrgMemberCaller {
  kind: 'member';
  key_id: string;
  /** The member gate this key was issued to. */
  deployment_id: string;
}

/**
 * One of the organization's own people at /rpc: a signed-in person (identity `iss|sub`, role
 * from the org's people table) or the holder of a review or admin key (identity `key:<key_id>`).
 */
export interface OrgStaffCaller {
  kind: 'person' | 'program';
  identity: string;
  role: OrderedRole;
  /**
   * A person's email as their issuer's access token asserts it (`email`, and `email_verified`
   * true or not); null for a key, or a token with no email. It matches the person with a
   * member's signers across issuers (person-match.ts); it is never logged.
   */
  email: { address: string; verified: boolean } | null;
}

export type OrgCaller = OrgMemberCaller | OrgStaffCaller;

/** A key the organization issued and then revoked (or whose member it revoked): 403, the member stops sending. */
export class KeyRevoked extends Error {}

/** Org keys carry a scope; the org's own keys hold the role their scope names. */
const ROLE_OF_SCOPE = { review: 'reviewer', admin: 'admin' } as const;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Who a bearer is at the organization gate, by the gate's rules (docs/protocol.md#credentials-and-roles):
 * a `gk_` key looked up by its sha256 on every request (so a revocation holds from the next
 * one), or a person's access token verified by the gate's own PersonTokens against the
 * issuers `[auth].trusted_issuers` lists (exact iss, aud containing `[auth].client_id`,
 * 60 s tolerance), whose role comes from the org's people table, else `[auth].admins`, else
 * reader. Throws CredentialError (401 with its kind) or KeyRevoked (403).
 */
interface KeyRow {
  key_hash: string;
  key_id: string;
  scope: 'submit' | 'review' | 'admin';
  deployment_id: string | null;
  revoked_at: Date | null;
  member_revoked: Date | null;
}

export class OrgBearer {
  /** Keys are read on every request, the lookups of concurrent requests in one round trip. */
  private readonly keys: RoundTripBatch<string, KeyRow | undefined>;

  constructor(
    private readonly pool: Pool,
    private readonly tokens: PersonTokens | null,
    private readonly admins: readonly string[],
  ) {
    this.keys = new RoundTripBatch(async (hashes) => {
      const rows = await pool.query<KeyRow>({
        name: 'org-keys-by-hash',
        text: `SELECT k.key_hash, k.key_id, k.scope, k.deployment_id, k.revoked_at, m.revoked_at AS member_revoked
                 FROM org_keys k LEFT JOIN members m ON m.deployment_id = k.deployment_id WHERE k.key_hash = ANY($1::text[])`,
        values: [[...new Set(hashes)]],
      });
      const byHash = new Map(rows.rows.map((r) => [r.key_hash, r]));
      return hashes.map((h) => byHash.get(h));
    }, 256, 2);
  }

  async callerOf(header: string | undefined): Promise<OrgCaller> {
    if (header === undefined || header === '') throw new CredentialError('missing', 'no Authorization header');
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) throw new CredentialError('malformed', 'expected Authorization: Bearer <token>');
    const token = match[1]!;
    if (token.startsWith('gk_')) return this.keyCaller(token);
    if (JWT_SHAPE.test(token)) return this.personCaller(token);
    throw new CredentialError('malformed', 'the bearer is neither an API key nor a token');
  }

  private async keyCaller(raw: string): Promise<OrgCaller> {
    if (!API_KEY_PATTERN.test(raw)) throw new CredentialError('malformed', 'an API key is gk_ followed by 43 base64url characters');
    const row = await this.keys.submit(hashApiKey(raw));
    if (!row) throw new CredentialError('signature', 'the key is not one this organization issued');
    if (row.revoked_at !== null || row.member_revoked !== null) throw new KeyRevoked('this key was revoked');
    if (row.scope === 'submit') return { kind: 'member', key_id: row.key_id, deployment_id: row.deployment_id! };
    return { kind: 'program', identity: `key:${row.key_id}`, role: ROLE_OF_SCOPE[row.scope], email: null };
  }

  private async personCaller(token: string): Promise<OrgCaller> {
    if (this.tokens === null) {
      throw new CredentialError('unsupported', 'sign-in tokens are accepted once [auth].trusted_issuers names an issuer; this organization gate has none');
    }
    const { iss, sub, claims } = await this.tokens.verify(token);
    const email = typeof claims['email'] === 'string' && claims['email'] !== '' ? { address: claims['email'], verified: claims['email_verified'] === true } : null;
    return { kind: 'person', identity: `${iss}|${sub}`, role: await roleOfPerson(this.pool, this.admins, iss, sub), email };
  }
}
