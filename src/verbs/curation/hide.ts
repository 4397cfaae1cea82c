import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import { isNameSegment } from '../../domain/names.js';
import { isPromoted } from '../../domain/states.js';
import type { House } from '../house.js';

export const ALL_AUDIENCES = 'all';
const DERIVED_IDS_SHOWN = 20;

const audienceParam = z
  .string()
  .refine(isNameSegment, 'an audience is a name in the space-name grammar (or "all")');

/** Served rows that name this one in derives_from: what a hide would leave citing a hidden row. */
function derivedServed(house: Pick<House, 'store'>, id: string): string[] {
  return house.store.relations.derivedFrom(id).filter((child) => {
    const row = house.store.artifacts.byId(child);
    return row !== undefined && isPromoted(row.state);
  });
}

const hideAnswer = z.union([
  z.object({
    lowered: z.boolean().optional(),
    artifact_id: z.string(),
    audience: z.string(),
    hidden: z.boolean(),
    event_id: z.string().nullable(),
    hidden_for: z.array(z.string()),
    changed: z.boolean(),
  }),
  z.object({
    artifact_id: z.string(),
    audience: z.string(),
    dry_run: z.boolean(),
    already_hidden_for: z.array(z.string()),
    derived_served: z.number(),
    derived_ids: z.array(z.string()),
  }),
]);

export const hideVerb = defineVerb({
  name: 'gv.hide',
  role: 'reviewer',
  summary: 'Hide a promoted row from an audience (default all), or lift a hide; dry_run shows what cites it.',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    audience: audienceParam.optional(),
    reason: z.string().min(1).max(500).optional(),
    lift: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  }),
  answer: hideAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const audience = p.audience ?? ALL_AUDIENCES;
    const lift = p.lift === true;
    if (!lift && p.reason === undefined && p.dry_run !== true) {
      throw invalidParams('a hide needs a reason (only a lift may omit it)', { field: 'reason' });
    }
    const row = access.readableArtifact(caller, p.artifact_id);
    if (!isPromoted(row.state)) {
      throw invalidParams(`gv.hide: a row in ${row.state} is not served; only a promoted row can be hidden`, { field: 'artifact_id' });
    }
    const hiddenFor = () => store.relations.hidesOf(row.artifact_id).map((h) => h.audience);
    if (p.dry_run === true) {
      const derived = derivedServed({ store }, row.artifact_id);
      return {
        artifact_id: row.artifact_id,
        audience,
        dry_run: true,
        already_hidden_for: hiddenFor(),
        derived_served: derived.length,
        derived_ids: derived.slice(0, DERIVED_IDS_SHOWN),
      };
    }
    return store.writer.write(() => {
      const standing = store.relations.hidesOf(row.artifact_id).find((h) => h.audience === audience);
      if ((standing !== undefined) !== lift) {
        // Hiding what is hidden, or lifting what is not, changes nothing and journals nothing.
        return {
          artifact_id: row.artifact_id,
          audience,
          hidden: standing !== undefined,
          event_id: standing?.event_id ?? null,
          hidden_for: hiddenFor(),
          changed: false,
          ...(standing?.lowered ? { lowered: true } : {}),
        };
      }
      // Only a signed-in person may take a row off every reader's surface; anyone else's total hide is lowered.
      const lowered = !lift && audience === ALL_AUDIENCES && caller.kind !== 'person';
      const data = {
        artifact_id: row.artifact_id,
        space: row.space,
        audience,
        ...(row.workarea === null ? {} : { workarea: row.workarea }),
        ...(lift ? { lift: true as const } : {}),
        ...(lowered ? { lowered: true as const } : {}),
        ...(p.reason === undefined ? {} : { reason: p.reason }),
      };
      const event = store.journal.append('hide', caller.identity, data);
      return {
        artifact_id: row.artifact_id,
        audience,
        hidden: !lift,
        event_id: event.event_id,
        hidden_for: hiddenFor(),
        changed: true,
        ...(lowered ? { lowered: true } : {}),
      };
    });
  },
});
