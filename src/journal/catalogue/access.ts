import { z } from 'zod';
import { proven } from './fields.js';
import { declare } from './declare.js';

/** A grant as it stands after the act (the reducer only records it), with what the act added or removed. */
const grant = z.strictObject({
  principal: z.string(),
  space: z.string(),
  capabilities: z.array(z.string()),
  added: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
  ...proven,
});

const crawlerException = z.strictObject({
  origin: z.string(),
  path_prefix: z.string(),
  reason: z.string().optional(),
  until: z.number().optional(),
  ...proven,
});

/** Who may do what: spaces, grants, keys, bans, people and their sign-ins, the crawler's exceptions, settings. */
export const ACCESS_EVENTS = {
  'space-created': declare({
    owner: ['src/gate.ts', 'src/verbs/admin/'],
    data: z.strictObject({ space: z.string(), owner: z.string(), policy: z.string() }),
    folds: ['spaces'],
    served: { object: 'space', fields: ['policy'] },
  }),
  'space-grant-issued': declare({ owner: ['src/crews/', 'src/verbs/admin/'], data: grant, folds: ['grants'] }),
  'space-grant-revoked': declare({ owner: ['src/crews/', 'src/verbs/admin/'], data: grant, folds: ['grants'] }),
  'apikey-issued': declare({
    owner: ['src/verbs/admin/', 'src/verbs/runners/'],
    data: z.strictObject({
      key_id: z.string(),
      key_hash: z.string(),
      role: z.string(),
      label: z.string().nullable(),
      issued_by: z.string(),
      expires_at: z.number().nullable(),
      scope: z.string().nullable(),
      /** A crew member's key: the runner, space, slot, batch and instance it was minted for. */
      member: z
        .strictObject({ runner: z.string(), space: z.string(), slot: z.string(), batch: z.number(), instance: z.string() })
        .optional(),
      ...proven,
    }),
    folds: ['api-keys', 'runners'],
  }),
  'apikey-revoked': declare({
    owner: ['src/crews/', 'src/verbs/admin/'],
    data: z.strictObject({ key_id: z.string(), reason: z.string().nullable() }),
    folds: ['api-keys', 'runners'],
  }),
  'apikey-assertion-key': declare({
    owner: ['src/verbs/admin/'],
    data: z.strictObject({ key_id: z.string(), public_key: z.string().nullable() }),
    folds: ['api-keys'],
  }),
  ban: declare({
    owner: ['src/verbs/governance/'],
    data: z.strictObject({ kind: z.string(), subject: z.string(), lift: z.literal(true).optional(), reason: z.string().optional(), until: z.number().optional() }),
    folds: ['bans'],
  }),
  'ban-refused': declare({
    owner: ['src/access/'],
    data: z.strictObject({ door: z.string(), ban_kind: z.string(), ban_event: z.string() }),
    folds: ['bans'],
  }),
  'crawler-exception-issued': declare({ owner: ['src/verbs/policy/'], data: crawlerException, folds: [] }),
  'crawler-exception-revoked': declare({ owner: ['src/verbs/policy/'], data: crawlerException, folds: [] }),
  'person-assigned': declare({
    owner: ['src/verbs/admin/'],
    data: z.strictObject({
      iss: z.string(),
      sub: z.string(),
      role: z.string(),
      demo: z.boolean(),
      email: z.string().optional(),
      name: z.string().optional(),
      ...proven,
    }),
    folds: ['people'],
  }),
  'person-removed': declare({
    owner: ['src/verbs/admin/'],
    data: z.strictObject({ iss: z.string(), sub: z.string(), ...proven }),
    folds: ['people'],
  }),
  'person-password-set': declare({
    owner: ['src/auth/'],
    data: z.strictObject({ iss: z.string(), sub: z.string(), how: z.string(), expires_at: z.number().optional(), ...proven }),
    folds: [],
  }),
  'signin-started': declare({
    owner: ['src/auth/'],
    data: z.strictObject({
      family: z.string(),
      iss: z.string(),
      sub: z.string(),
      client_id: z.string(),
      scope: z.string(),
      auth_time: z.number(),
      token_hash: z.string(),
      expires_at: z.number(),
    }),
    folds: ['signin-sessions'],
  }),
  'signin-refreshed': declare({
    owner: ['src/auth/'],
    data: z.strictObject({ family: z.string(), token_hash: z.string(), expires_at: z.number() }),
    folds: ['signin-sessions'],
  }),
  'signin-ended': declare({
    owner: ['src/auth/'],
    data: z.strictObject({ family: z.string(), reason: z.string(), token_hash: z.string().optional() }),
    folds: ['signin-sessions'],
  }),
  'settings-saved': declare({
    owner: ['src/verbs/admin/'],
    data: z.strictObject({
      keys: z.array(z.string()),
      values: z.record(z.string(), z.unknown()),
      applied_live: z.array(z.string()),
      restart_required: z.array(z.string()),
      file_sha256: z.string(),
      ...proven,
    }),
    folds: [],
  }),
};
