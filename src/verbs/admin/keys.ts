import { z } from 'zod';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { ROLES, atLeast, roleRank, type Role } from '../../domain/roles.js';
import { mintApiKey } from '../../credentials/api-keys.js';
import { requireLongLivedCredential } from '../long-lived-credential.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import type { KeyRow } from '../../projections/api-key-reads.js';
import { eventIdAnswer, roleAnswer } from '../answer-types.js';

const DAY_MS = 86_400_000;

const keyView = (k: KeyRow, now: number) => ({
  key_id: k.key_id,
  identity: `key:${k.key_id}`,
  role: k.role,
  label: k.label,
  issued_by: k.issued_by,
  issued_at: k.issued_at,
  expires_at: k.expires_at,
  revoked_at: k.revoked_at,
  scope: k.scope,
  active: k.revoked_at === null && (k.expires_at === null || k.expires_at > now),
});

/**
 * Below admin a caller sees and revokes only its own keys (the one it calls with and those
 * it issued) and keys of a lower role within readable spaces (docs/protocol.md#gvkeys): every space
 * the key holds a grant on is one the caller may read. A runner key is never lower: it
 * stands outside the order and is the admin's alone.
 */
function visibleKeys({ caller, store, access }: Pick<VerbContext, 'caller' | 'store' | 'access'>): KeyRow[] {
  const all = store.apiKeys.all();
  if (atLeast(caller.role, 'admin')) return all;
  const withinReadableSpaces = (k: KeyRow) =>
    store.grants.spacesOf(`key:${k.key_id}`).every((space) => access.capabilities.has(caller, space, 'read'));
  return all.filter(
    (k) =>
      k.issued_by === caller.identity ||
      `key:${k.key_id}` === caller.identity ||
      (k.role !== 'runner' && roleRank(k.role) < roleRank(caller.role) && withinReadableSpaces(k)),
  );
}

const keyRowAnswer = z.object({
  key_id: z.string(),
  identity: z.string(),
  role: roleAnswer,
  label: z.string().nullable(),
  issued_by: z.string(),
  issued_at: z.number().int(),
  expires_at: z.number().int().nullable(),
  revoked_at: z.number().int().nullable(),
  scope: z.string().nullable(),
  active: z.boolean(),
});

/** The list; a new key (its raw value shown once, here, never again); or a revocation and the list after it. */
const keysAnswer = z.union([
  z.object({ keys: z.array(keyRowAnswer) }),
  z.object({
    key: z.string().describe('the raw key: shown once, here, never again'),
    key_id: z.string(),
    role: roleAnswer,
    label: z.string().nullable(),
    expires_at: z.number().int().nullable(),
    event_id: eventIdAnswer,
    scope: z.enum(['events', 'metrics']).nullable(),
  }),
  z.object({
    key_id: z.string(),
    revoked: z.boolean(),
    already: z.boolean().optional().describe('it was revoked before: nothing new was recorded'),
    event_id: eventIdAnswer.optional(),
    keys: z.array(keyRowAnswer),
  }),
]);

export const keysVerb = defineVerb({
  name: 'gv.keys',
  role: 'reviewer',
  summary: 'List, issue or revoke API keys; a raw key is shown once.',
  params: z.strictObject({
    action: z.enum(['list', 'issue', 'revoke']).optional(),
    label: z.string().min(1).max(64).optional(),
    role: z.enum(ROLES as [Role, ...Role[]]).optional(),
    expires_in_days: z.number().int().min(1).max(3650).optional(),
    scope: z.enum(['events', 'metrics']).optional(),
    key_id: z.string().regex(/^[0-9a-f]{12}$/, 'a key id is 12 lower-case hex characters').optional(),
    reason: z.string().min(1).max(500).optional(),
    proof: proofParam.optional(),
  }),
  answer: keysAnswer,
  uses: ['store', 'access', 'auth', 'clock'],
  async handler(ctx, p) {
    const { caller, store, clock } = ctx;
    const action = p.action ?? 'list';
    const now = clock.now();
    if (action === 'list') return { keys: visibleKeys(ctx).map((k) => keyView(k, now)) };
    if (action === 'issue') {
      requireLongLivedCredential(caller, 'issuing an API key');
      const role = p.role ?? 'agent';
      if (role === 'runner' && !atLeast(caller.role, 'admin')) {
        throw invalidParams('runner keys are issued by an admin only', { field: 'role' });
      }
      if (role !== 'runner' && roleRank(role) > roleRank(caller.role)) {
        throw invalidParams(`a key's role may not be above the issuer's: ${role} is above ${caller.role}`, { field: 'role' });
      }
      if (p.scope !== undefined && role !== 'reviewer') {
        throw invalidParams(`scope ${p.scope} is for reviewer keys only`, { field: 'scope' });
      }
      const operatorKey = role === 'admin' || role === 'runner' ? requireOperatorProof(ctx, p.proof, `gv.keys issue of a${role === 'admin' ? 'n admin' : ' runner'} key`) : null;
      const minted = mintApiKey();
      const expiresAt = p.expires_in_days === undefined ? null : now + p.expires_in_days * DAY_MS;
      const event = await store.writer.write(() =>
        store.journal.append('apikey-issued', caller.identity, {
          key_id: minted.keyId,
          key_hash: minted.hash,
          role,
          label: p.label ?? null,
          issued_by: caller.identity,
          expires_at: expiresAt,
          scope: p.scope ?? null,
          ...provenBy(operatorKey),
        }),
      );
      return {
        key: minted.raw,
        key_id: minted.keyId,
        role,
        label: p.label ?? null,
        expires_at: expiresAt,
        event_id: event.event_id,
        scope: p.scope ?? null,
      };
    }
    if (p.key_id === undefined) throw invalidParams('revoke needs key_id', { field: 'key_id' });
    const keyId = p.key_id;
    const target = visibleKeys(ctx).find((k) => k.key_id === keyId);
    if (!target) throw invalidParams(`unknown key: ${keyId}`, { field: 'key_id' });
    if (target.revoked_at !== null) {
      return { key_id: keyId, revoked: true, already: true, keys: visibleKeys(ctx).map((k) => keyView(k, now)) };
    }
    const event = await store.writer.write(() =>
      store.journal.append('apikey-revoked', caller.identity, { key_id: keyId, reason: p.reason ?? null }),
    );
    return { key_id: keyId, revoked: true, event_id: event.event_id, keys: visibleKeys(ctx).map((k) => keyView(k, now)) };
  },
});
