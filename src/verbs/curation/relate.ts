import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { requireSupersession, supersedesEventData } from '../writing/supersedes-rule.js';
import { invalidParams } from '../../gate-error.js';
import { RELATION_KINDS } from '../../projections/relation-reads.js';
import type { EventData } from '../../journal/catalogue/catalogue.js';

const relateAnswer = z.object({
  artifact_id: z.string(),
  relation: z.enum(['supersedes', 'restates', 'corrects', 'contradicts', 'extends']),
  parent: z.string(),
  event_id: z.string(),
  changed: z.boolean(),
});

export const relateVerb = defineVerb({
  name: 'gv.relate',
  role: 'reviewer',
  summary: 'Relate a child row to a parent: supersedes, restates, corrects, contradicts or extends (only supersedes hides the parent).',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    kind: z.enum(RELATION_KINDS),
    parent: artifactIdParam,
  }),
  answer: relateAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    if (p.artifact_id === p.parent) throw invalidParams('a row cannot relate to itself', { field: 'parent' });
    return store.writer.write(() => {
      const child = access.readableArtifact(caller, p.artifact_id);
      const parent = access.readableArtifact(caller, p.parent);
      const standing = store.relations.relation(child.artifact_id, parent.artifact_id, p.kind);
      if (standing) {
        return { artifact_id: child.artifact_id, relation: p.kind, parent: parent.artifact_id, event_id: standing.event_id, changed: false };
      }
      const base = { child: child.artifact_id, parent: parent.artifact_id, kind: p.kind };
      let data: EventData<'relation'>;
      if (p.kind === 'supersedes') {
        requireSupersession({ store }, 'gv.relate', child, parent);
        data = supersedesEventData(child, parent);
      } else {
        data = { artifact_id: child.artifact_id, space: child.space, ...base, ...(child.workarea === null ? {} : { workarea: child.workarea }) };
      }
      const event = store.journal.append('relation', caller.identity, data);
      return { artifact_id: child.artifact_id, relation: p.kind, parent: parent.artifact_id, event_id: event.event_id, changed: true };
    });
  },
});
