import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { invalidParams } from '../../gate-error.js';
import { CAPABILITIES, type Capability } from '../../access/capabilities.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import type { House } from '../house.js';

/** `<iss>|<sub>` (a signed-in person), `key:<key_id>` (an API key), `uid:<n>` (every process of a local user). */
const PRINCIPAL = /^(key:[0-9a-f]{12}|uid:\d{1,10}|[^|\s]{1,512}\|[^|\s]{1,512})$/;
const principalParam = z.string().regex(PRINCIPAL, 'a principal is <iss>|<sub>, key:<key_id> or uid:<n>');

const entry = z.strictObject({
  principal: principalParam,
  space: spaceParam,
  capabilities: z.array(z.enum(CAPABILITIES)).min(1).max(3),
});

const heldBy = (house: Pick<House, 'store'>, principal: string, space: string): Capability[] => {
  const row = house.store.grants.capabilities(principal, space);
  return row ? (row.capabilities.split(',') as Capability[]) : [];
};

const ordered = (caps: Iterable<Capability>) => CAPABILITIES.filter((c) => new Set(caps).has(c));

const grantAnswer = z.object({
  action: z.enum(['issue', 'revoke']),
  changed: z.boolean(),
  grants: z.array(z.union([
    z.object({
      principal: z.string(),
      space: z.string(),
      capabilities: z.array(z.enum(['read', 'contribute', 'submit'])),
      changed: z.boolean(),
      held: z.array(z.enum(['read', 'contribute', 'submit'])),
    }),
    z.object({
      principal: z.string(),
      space: z.string(),
      capabilities: z.array(z.enum(['read', 'contribute', 'submit'])),
      changed: z.boolean(),
      event_id: z.string(),
      held: z.array(z.enum(['read', 'contribute', 'submit'])),
    }),
  ])),
});

export const grantVerb = defineVerb({
  name: 'gv.grant',
  role: 'admin',
  summary: 'Issue or revoke per-space capabilities; applied whole or refused whole.',
  params: z.strictObject({ action: z.enum(['issue', 'revoke']), grants: z.array(entry).min(1).max(500), proof: proofParam.optional() }),
  answer: grantAnswer,
  uses: ['store', 'auth'],
  handler(ctx, p) {
    const { caller, store } = ctx;
    const seen = new Set<string>();
    for (const g of p.grants) {
      requireSpace({ store }, g.space);
      const key = `${g.principal}\u0000${g.space}`;
      if (seen.has(key)) throw invalidParams(`principal ${g.principal} appears twice on space ${g.space}`, { field: 'grants' });
      seen.add(key);
    }
    const operatorKey = requireOperatorProof(ctx, p.proof, `gv.grant ${p.action}`);
    return store.writer.write(() => {
      const results = p.grants.map((g) => {
        const before = heldBy({ store }, g.principal, g.space);
        const after =
          p.action === 'issue'
            ? ordered([...before, ...g.capabilities])
            : ordered(before.filter((c) => !g.capabilities.includes(c)));
        const changed = after.join(',') !== ordered(before).join(',');
        if (!changed) return { principal: g.principal, space: g.space, capabilities: g.capabilities, changed: false, held: after };
        const event = store.journal.append(p.action === 'issue' ? 'space-grant-issued' : 'space-grant-revoked', caller.identity, {
          principal: g.principal,
          space: g.space,
          capabilities: after,
          [p.action === 'issue' ? 'added' : 'removed']: g.capabilities,
          ...provenBy(operatorKey),
        });
        return { principal: g.principal, space: g.space, capabilities: g.capabilities, changed: true, event_id: event.event_id, held: after };
      });
      return { action: p.action, changed: results.some((r) => r.changed), grants: results };
    });
  },
});

const grantsAnswer = z.object({
  grants: z.array(z.object({
    principal: z.string(),
    space: z.string(),
    capabilities: z.array(z.enum(['read', 'contribute', 'submit'])),
    issued: z.number(),
    every_process_of_that_user: z.boolean(),
  })),
  upgrade: z.array(z.string()),
  refused_not_granted: z.record(z.string(), z.number()),
});

export const grantsVerb = defineVerb({
  name: 'gv.grants',
  role: 'admin',
  summary: 'List grants, and who was refused for lack of one.',
  params: z.strictObject({ principal: principalParam.optional(), space: spaceParam.optional() }),
  answer: grantsAnswer,
  uses: ['store', 'access'],
  handler({ store, access }, p) {
    const rows = store.grants.list(p.principal, p.space);
    const refused = Object.fromEntries(access.capabilities.refusals);
    const granted = new Set(rows.map((r) => r.principal));
    return {
      grants: rows.map((r) => ({
        principal: r.principal,
        space: r.space,
        capabilities: r.capabilities.split(',') as Capability[],
        issued: r.issued_ts,
        every_process_of_that_user: r.principal.startsWith('uid:'),
      })),
      // Principals refused for want of a grant that hold none: the ones an operator may want to grant.
      upgrade: Object.keys(refused).filter((principal) => !granted.has(principal)).sort(),
      refused_not_granted: refused,
    };
  },
});
