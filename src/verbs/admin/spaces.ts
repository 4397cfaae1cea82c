import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { invalidParams } from '../../gate-error.js';
import { isSpaceName } from '../../domain/names.js';
import { visibleRowsClause } from '../../access/visible-rows.js';

export const SPACE_POLICIES = ['human', 'model', 'auto'] as const;

/**
 * The operator's door for creating a space (docs/protocol.md#spaces-work-areas-and-other-resources: created only by the
 * operator; no tool creates one): admin, and on the local socket only, so no remote credential can do it.
 */
const spaceCreateAnswer = z.object({
  space: z.string(),
  owner: z.string(),
  policy: z.enum(['model', 'human', 'auto']),
  event_id: z.string(),
});

export const spaceCreateVerb = defineVerb({
  name: 'gv.space_create',
  role: 'admin',
  summary: 'Create a space (operator only, on the local socket).',
  surfaces: ['socket'],
  params: z.strictObject({
    name: z.string().refine(isSpaceName, 'a space name is 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit'),
    policy: z.enum(SPACE_POLICIES),
    owner: z.string().min(1).max(256).optional(),
  }),
  answer: spaceCreateAnswer,
  uses: ['store'],
  handler({ caller, store }, p) {
    return store.writer.write(() => {
      if (store.spaceNames().includes(p.name)) throw invalidParams(`space ${p.name} already exists`, { field: 'name' });
      const event = store.journal.append('space-created', caller.identity, {
        space: p.name,
        owner: p.owner ?? caller.identity,
        policy: p.policy,
      });
      return { space: p.name, owner: p.owner ?? caller.identity, policy: p.policy, event_id: event.event_id };
    });
  },
});

export const spacesAnswer = z.object({
  spaces: z.array(z.object({ name: z.string(), owner: z.string(), policy: z.string(), artifacts: z.number().int().describe('claims you may see in it') })),
});

export const spacesVerb = defineVerb({
  name: 'gv.spaces',
  role: 'reader',
  summary: "Each space's name, owner, review policy and the count of rows you may see in it.",
  params: z.strictObject({}),
  answer: spacesAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }) {
    const visible = visibleRowsClause({ store, access }, caller);
    const counts = new Map(store.artifacts.visibleCountsBySpace(visible).map((r) => [r.space, r.n]));
    const rows = store.spaces.all();
    return { spaces: rows.map((s) => ({ name: s.name, owner: s.owner, policy: s.policy, artifacts: counts.get(s.name) ?? 0 })) };
  },
});
