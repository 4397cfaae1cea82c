import { z } from 'zod';
import type { CollectionHeader } from '@gate/client/forms';
import { aboutRow, rowMove } from './fields.js';
import { declare } from './declare.js';

/** A relation's own fields: the two rows, its kind, and the replacement group that made it, if one did. */
const relates = { child: z.string(), parent: z.string(), kind: z.string(), group_id: z.string().optional() };

/** Curation: relations, tips, hiding, ranks, replacement groups, work areas, published collections. */
export const CURATION_EVENTS = {
  relation: declare({
    owner: ['src/verbs/curation/', 'src/verbs/review/'],
    // A supersession moves its parent (the common fields of a move); any other relation moves nothing.
    data: z.union([z.strictObject({ ...rowMove, ...relates }), z.strictObject({ ...aboutRow, ...relates })]),
    folds: ['artifacts', 'relations'],
    served: { object: 'row', fields: ['kind', 'group_id'] },
  }),
  'tip-override': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({ ...aboutRow, pinned: z.boolean(), unpins: z.string().optional(), reason: z.string().optional() }),
    folds: ['relations'],
    served: { object: 'row', fields: ['pinned'] },
  }),
  hide: declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({
      ...aboutRow,
      audience: z.string(),
      lift: z.literal(true).optional(),
      lowered: z.literal(true).optional(),
      reason: z.string().optional(),
    }),
    folds: ['relations'],
    served: { object: 'row', fields: ['audience', 'lift', 'lowered'] },
  }),
  rank: declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({ ...aboutRow, audience: z.string(), weight: z.number() }),
    folds: ['ranks'],
    served: { object: 'row', fields: ['audience', 'weight'] },
  }),
  'replacement-proposed': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({
      group_id: z.string(),
      space: z.string(),
      operation: z.string(),
      parent_ids: z.array(z.string()),
      child_ids: z.array(z.string()),
      reason: z.string(),
      manifest_digest: z.string(),
      policy_revision: z.string().optional(),
    }),
    folds: ['replacement-groups'],
    served: { object: 'group', fields: ['group_id', 'operation'], counted: { parent_ids: 'parents', child_ids: 'children' } },
  }),
  'replacement-prepared': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({ ...rowMove, group_id: z.string() }),
    folds: ['artifacts', 'replacement-groups'],
    served: { object: 'group', fields: ['group_id'] },
  }),
  'replacement-activated': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({
      group_id: z.string(),
      space: z.string(),
      promoted: z.array(z.string()),
      superseded: z.array(z.string()),
      self_signed: z.literal(true).optional(),
    }),
    folds: ['replacement-groups'],
    served: { object: 'group', fields: ['group_id', 'self_signed'], counted: { promoted: 'promoted', superseded: 'superseded' } },
  }),
  'replacement-aborted': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({ group_id: z.string(), space: z.string(), reason: z.string(), evidence: z.array(z.string()).optional() }),
    folds: ['replacement-groups'],
    served: { object: 'group', fields: ['group_id', 'reason'], counted: { evidence: 'evidence' } },
  }),
  'workarea-completed': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({ space: z.string(), workarea: z.string(), identity: z.string(), note: z.string().optional() }),
    folds: ['workareas'],
    served: { object: 'workarea', fields: ['identity'] },
  }),
  'workarea-related': declare({
    owner: ['src/verbs/curation/'],
    data: z.strictObject({
      space: z.string(),
      workarea: z.string(),
      kind: z.string(),
      target: z.string(),
      note: z.string().optional(),
      producer: z.strictObject({ name: z.string(), kind: z.string() }).optional(),
    }),
    folds: ['workareas'],
    served: { object: 'workarea', fields: ['kind', 'target'] },
  }),
  'collection-published': declare({
    owner: ['src/verbs/publishing/'],
    data: z.strictObject({
      space: z.string(),
      collection_id: z.string(),
      /** The collection's header (docs/client.md, the collection form), signed as it is. */
      header: z.custom<CollectionHeader>(),
      rows_blob: z.string(),
    }),
    folds: ['collections'],
  }),
};
