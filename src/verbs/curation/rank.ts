import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import { isNameSegment } from '../../domain/names.js';
import { isPromoted } from '../../domain/states.js';

export const RANK_WEIGHT_MAX = 3;

const rankAnswer = z.object({
  artifact_id: z.string(),
  audience: z.string(),
  weight: z.number(),
  changed: z.boolean(),
  event_id: z.string().nullable(),
  totals: z.object({ sum: z.number(), n: z.number().int() }),
});

export const rankVerb = defineVerb({
  name: 'gv.rank',
  role: 'agent',
  summary: 'Weight a promoted row for an audience (-3 to 3; 0 withdraws your weight). Recorded for reviewers; recall weights nothing by it.',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    weight: z.number().int().min(-RANK_WEIGHT_MAX).max(RANK_WEIGHT_MAX),
    audience: z.string().refine((a) => isNameSegment(a), 'an audience is a name in the space-name grammar').optional(),
  }),
  answer: rankAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const audience = p.audience ?? 'all';
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      if (!isPromoted(row.state)) throw invalidParams(`gv.rank: a row in ${row.state} is not served; only a promoted row is weighted`);
      const standing = store.ranks.standing(row.artifact_id, audience, caller.identity);
      const changed = (standing?.weight ?? 0) !== p.weight;
      let eventId: string | null = null;
      if (changed) {
        const data = { artifact_id: row.artifact_id, space: row.space, audience, weight: p.weight, ...(row.workarea === null ? {} : { workarea: row.workarea }) };
        eventId = store.journal.append('rank', caller.identity, data).event_id;
      }
      const totals = store.ranks.totals(row.artifact_id, audience);
      return { artifact_id: row.artifact_id, audience, weight: p.weight, changed, event_id: eventId, totals };
    });
  },
});
