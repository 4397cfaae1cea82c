import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import { isPromoted } from '../../domain/states.js';
import type { Caller } from '../../access/caller.js';
import type { House } from '../house.js';
import { eventIdAnswer } from '../answer-types.js';

/**
 * The served head of a row's supersession chain: the pinned member when a pin stands in
 * the chain, else the newest member still ACTIVE (a demoted head does not leave the chain
 * headless while an older member is served).
 */
export function tipOf(house: Pick<House, 'store' | 'access'>, caller: Caller, id: string) {
  const chain = house.store.relations.chain(id);
  const members = chain.members
    .map((m) => house.store.artifacts.byId(m))
    .filter((row) => row !== undefined && house.access.visibility.canRead(caller, row))
    .map((row) => ({ artifact_id: row!.artifact_id, state: row!.state, promoted_at: row!.promoted_ts, state_ts: row!.state_ts }));
  const pin = house.store.relations.pinIn(chain);
  const newestActive = [...members].reverse().find((m) => m.state === 'ACTIVE');
  const served = pin !== undefined && members.some((m) => m.artifact_id === pin.artifact_id) ? pin.artifact_id : (newestActive?.artifact_id ?? null);
  return {
    artifact_id: id,
    head: served,
    natural_head: chain.head,
    chain: members,
    pin: pin === undefined ? null : { artifact_id: pin.artifact_id, by: pin.by, ts: pin.ts, event_id: pin.event_id },
  };
}

export const tipAnswer = z.object({
  artifact_id: z.string(),
  head: z.string().nullable().describe('the served head of its supersession chain'),
  natural_head: z.string().describe('the head with no pin in effect'),
  chain: z.array(
    z.object({
      artifact_id: z.string(),
      state: z.string(),
      promoted_at: z.number().int().nullable(),
      state_ts: z.number().int().describe('when it entered its state'),
    }),
  ),
  pin: z.object({ artifact_id: z.string(), by: z.string().nullable(), ts: z.number().int(), event_id: z.string() }).nullable(),
});

export const tipVerb = defineVerb({
  name: 'gv.tip',
  role: 'reader',
  summary: 'The served head of a row’s supersession chain, the chain root to head, and any pin in effect.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: tipAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    return tipOf({ store, access }, caller, row.artifact_id);
  },
});

const overrideTipAnswer = tipAnswer.extend({ pinned: z.boolean(), event_id: eventIdAnswer });

export const overrideTipVerb = defineVerb({
  name: 'gv.override_tip',
  role: 'reviewer',
  summary: 'Pin the served head of a supersession chain to this row; a second override on the same row lifts the pin.',
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().min(1).max(500).optional() }),
  answer: overrideTipAnswer,
  uses: ['store', 'access', 'crews'],
  handler({ caller, store, access, crews }, p) {
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      if (!isPromoted(row.state)) {
        throw invalidParams(`gv.override_tip: a row in ${row.state} is not served and cannot head a chain`, { field: 'artifact_id' });
      }
      if (crews.sheets.sheetOf(row) !== null) {
        throw invalidParams("gv.override_tip: a crew sheet is never pinned; the crew's newest promoted sheet is its sheet", { reason: 'crew_sheet_not_pinned' });
      }
      const standing = store.relations.pinIn(store.relations.chain(row.artifact_id));
      const pinned = standing?.artifact_id !== row.artifact_id;
      const data = {
        artifact_id: row.artifact_id,
        space: row.space,
        pinned,
        ...(row.workarea === null ? {} : { workarea: row.workarea }),
        ...(pinned && standing !== undefined ? { unpins: standing.artifact_id } : {}),
        ...(p.reason === undefined ? {} : { reason: p.reason }),
      };
      const event = store.journal.append('tip-override', caller.identity, data);
      return { ...tipOf({ store, access }, caller, row.artifact_id), pinned, event_id: event.event_id };
    });
  },
});
