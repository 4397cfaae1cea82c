import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { requireLongLivedCredential } from '../long-lived-credential.js';
import { ASSERTION_ISSUER } from '../../auth/agent-assertions.js';
import { ed25519KeyTextProblem } from '../../forms/strict-ed25519.js';
import { ASSERTION_CLOCK_TOLERANCE_S, ASSERTION_MAX_SECONDS } from '../../auth/sign-in-lifetimes.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';
import { eventIdAnswer } from '../answer-types.js';

/** An Ed25519 public key as the deployment id is written: base64url of its 32 raw bytes (the JWK x). */
const publicKeyParam = z.string().regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, 'an Ed25519 public key is the base64url of its 32 bytes (43 characters, the JWK x)');

/**
 * The other long-lived credential: the service's own account on the socket (admin there) may
 * name any live API key, to bind, replace or remove its assertion key for it (a holder who
 * lost the private key, a binding the operator wants gone).
 */
function socketNamedKey(house: Pick<House, 'store'>, caller: Caller, keyId: string): string {
  if (caller.surface !== 'socket' || caller.role !== 'admin') {
    throw invalidParams("key_id names another API key's binding: only the operator on the socket may; an API key binds its own", { field: 'key_id' });
  }
  const row = house.store.apiKeys.revokedAt(keyId);
  if (row === undefined || row.revoked_at !== null) throw invalidParams(`no live API key ${keyId}`, { field: 'key_id' });
  return keyId;
}

const assertionKeyAnswer = z.object({
  key_id: z.string(),
  public_key: z.string().nullable(),
  changed_at: z.number().int().nullable(),
  change_event_id: z.string().nullable(),
  assertion: z.object({
    typ: z.string(),
    alg: z.string(),
    kid: z.string(),
    iss: z.string(),
    sub: z.string(),
    client_id: z.string(),
    aud: z.string(),
    max_lifetime_s: z.number().int(),
    clock_tolerance_s: z.number().int(),
  }),
  changed: z.boolean().optional().describe('a bind, replace or remove: whether it changed the binding (absent on a read)'),
  event_id: eventIdAnswer.optional().describe('the apikey-assertion-key event a change wrote'),
});

export const assertionKeyVerb = defineVerb({
  name: 'gv.assertion_key',
  role: 'agent',
  summary:
    "Bind the Ed25519 public key an API key's holder signs its own short-lived assertions with (RFC 9068 at+jwt, at most 300 s), replace it, remove it (remove: true), or read the binding and what an assertion must say.",
  params: z.strictObject({
    public_key: publicKeyParam.optional(),
    remove: z.boolean().optional(),
    key_id: z.string().regex(/^[0-9a-f]{12}$/, 'a key id is 12 lower-case hex characters').optional(),
  }),
  answer: assertionKeyAnswer,
  uses: ['store', 'deployment'],
  async handler({ caller, store, deployment }, p) {
    const keyId = p.key_id === undefined ? ASSERTION_ISSUER.exec(caller.identity)?.[1] : socketNamedKey({ store }, caller, p.key_id);
    if (keyId === undefined) {
      throw invalidParams('gv.assertion_key binds a key to an API key: call it with the API key (Bearer gk_...) whose holder will sign assertions, or as the operator on the socket with key_id', { reason: 'not_an_api_key' });
    }
    if (p.public_key !== undefined && p.remove === true) throw invalidParams('give public_key or remove, not both', { field: 'remove' });
    if (p.public_key !== undefined || p.remove === true) requireLongLivedCredential(caller, 'binding, replacing or removing the assertion key');
    if (p.public_key !== undefined) {
      const problem = ed25519KeyTextProblem(p.public_key);
      if (problem !== null) throw invalidParams(`public_key is not a usable Ed25519 public key: ${problem}`, { field: 'public_key', reason: 'weak_key' });
    }
    const row = () => store.apiKeys.assertionBinding(keyId);
    const wanted = p.remove === true ? null : (p.public_key ?? undefined);
    const answer = (extra: { changed?: boolean; event_id?: string } = {}) => {
      const now = row();
      return {
        key_id: keyId,
        public_key: now?.assertion_key ?? null,
        // The last change (a binding, a replacement or a removal), so the key's holder sees one it did not make.
        changed_at: now?.assertion_key_at ?? null,
        change_event_id: now?.assertion_key_event ?? null,
        // What an assertion must carry to be accepted as this key (README "An agent's own assertion").
        assertion: { typ: 'at+jwt', alg: 'EdDSA', kid: keyId, iss: `key:${keyId}`, sub: `key:${keyId}`, client_id: keyId, aud: deployment.deploymentId, max_lifetime_s: ASSERTION_MAX_SECONDS, clock_tolerance_s: ASSERTION_CLOCK_TOLERANCE_S },
        ...extra,
      };
    };
    if (wanted === undefined) return answer();
    return store.writer.write(() => {
      // Binding what is bound, or removing what is not, journals nothing.
      if ((row()?.assertion_key ?? null) === wanted) return answer({ changed: false });
      const event = store.journal.append('apikey-assertion-key', caller.identity, { key_id: keyId, public_key: wanted });
      return answer({ changed: true, event_id: event.event_id });
    });
  },
});
