import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { limitParam } from '../param-types.js';
import { GROUP_ID_PATTERN, groupReads, groupStatus, replacementGroupAnswer } from './replacement-group-view.js';
import { groupVisible } from '../../access/group-visibility.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { GROUP_STATES, type Group } from '../../projections/replacement-group-reads.js';

const LIMIT_MAX = 200;

const replacementsAnswer = z.object({
  groups: z.array(replacementGroupAnswer),
  total: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  revision: z.string(),
  scope: z.string(),
});

export const replacementsVerb = defineVerb({
  name: 'gv.replacements',
  // The protocol lists it among the reviewer verbs (docs/protocol.md#gvreview-and-gvreplacements); below reviewer a group shows only in events and gv.node.
  role: 'reviewer',
  summary: 'Replacement groups, newest first, with the revision gv.replacement_activate takes.',
  params: z.strictObject({
    group_id: z.string().regex(GROUP_ID_PATTERN, 'not a group id').optional(),
    state: z.enum(GROUP_STATES).optional(),
    limit: limitParam(LIMIT_MAX).optional(),
  }),
  answer: replacementsAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const limit = p.limit ?? 50;
    const reads = groupReads({ store });
    const candidates: Iterable<Group> =
      p.group_id === undefined ? reads.newestFirst() : [reads.byId(p.group_id)].filter((g): g is Group => g !== undefined);
    const counts: Record<string, number> = Object.fromEntries(GROUP_STATES.map((s) => [s, 0]));
    const matching: Group[] = [];
    for (const group of candidates) {
      if (!groupVisible({ store, access }, caller, group)) continue;
      counts[group.state] = (counts[group.state] ?? 0) + 1;
      if (p.state === undefined || group.state === p.state) matching.push(group);
    }
    const groups = matching.slice(0, limit).map((g) => groupStatus({ store }, g));
    // An answer of one group carries that group's revision, ready for gv.replacement_activate;
    // an answer of several, one that changes whenever any of theirs does.
    const revision =
      groups.length === 1
        ? groups[0]!.revision
        : sha256Hex(canonicalJson(groups.map((g) => [g.group_id, g.revision])));
    return {
      groups,
      total: matching.length,
      counts,
      revision,
      scope: access.visibility.seesEverything(caller) ? 'all' : 'readable',
    };
  },
});
