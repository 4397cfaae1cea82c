import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { reasonOf } from '../../projections/row-metadata.js';
import { isHeld, isPromoted } from '../../domain/states.js';
import { eventFromRow } from '../../forms/event.js';
import { servedRowsOf, signedEntry } from '../../events/signed-history.js';
import type { Caller } from '../../access/caller.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import { withheldFields, type Reader } from './signed-disclosure.js';
import { answerProofs, checkpointSchema, keyRotationsSchema } from './log-proofs.js';
import { provenEventAnswer } from '../answer-types.js';
import type { House } from '../house.js';

export const statusAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  reason: z.string().describe('why it is there, in closed words'),
  held: z.boolean(),
  ratified: z.boolean(),
  provisional: z.boolean(),
  space: z.string(),
  workarea: z.string().nullable(),
  findings_count: z.number().int(),
  since_ts: z.number().int().describe('when it entered its state'),
});

export const statusVerb = defineVerb({
  name: 'gv.status',
  role: 'reader',
  summary: "A row's position and the reason it is there.",
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: statusAnswer,
  uses: ['access'],
  handler({ caller, access }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    return {
      artifact_id: row.artifact_id,
      state: row.state,
      reason: reasonOf(row),
      held: isHeld(row.state),
      ratified: isPromoted(row.state),
      provisional: row.provisional === 1,
      space: row.space,
      workarea: row.workarea,
      findings_count: row.findings_count,
      since_ts: row.state_ts,
    };
  },
});

/** What this caller reads of the row already, for deciding whose signed bytes it may be handed. */
function readerOf(house: Pick<House, 'store' | 'access'>, caller: Caller, row: ArtifactRow): Reader {
  return {
    caller,
    reviewer: house.access.visibility.seesEverything(caller),
    writer: row.writer_identity === caller.identity,
    contentHash: row.content_hash,
    canReadId: (id) => {
      const other = house.store.artifacts.byId(id);
      return other !== undefined && house.access.visibility.canRead(caller, other);
    },
  };
}

export const whyAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  deployment_id: z.string(),
  checkpoint: checkpointSchema,
  key_rotations: keyRotationsSchema,
  events: z.array(
    provenEventAnswer.extend({
      signed: z
        .string()
        .nullable()
        .describe("the exact bytes signed (the event's canonical JSON, {v, seq, type, ts, prev, by, data}), so a reader checks sig itself; null when the event holds a field in `withheld`"),
      withheld: z.array(z.string()).describe('fields of the event whose values this caller is not served, which keep `signed` back; empty when it is served'),
    }),
  ),
});

export const whyVerb = defineVerb({
  name: 'gv.why',
  role: 'reader',
  summary: 'Every journal event that moved a row, in order, with signatures, the signed bytes where the caller may read all they hold, and each event\'s inclusion proof in the signed checkpoint answered beside them.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: whyAnswer,
  uses: ['store', 'access', 'deployment'],
  handler({ caller, store, access, deployment }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    const reader = readerOf({ store, access }, caller, row);
    const proofs = answerProofs({ store, deployment });
    return {
      artifact_id: row.artifact_id,
      state: row.state,
      deployment_id: deployment.deploymentId,
      checkpoint: proofs.checkpoint,
      ...proofs.rotations,
      events: servedRowsOf({ store }, row.artifact_id).map((stored) => {
        const event = eventFromRow(stored);
        // The stored bytes are what was signed; a reader is handed them only if nothing in them is kept from it.
        const withheld = withheldFields(reader, event);
        return { ...signedEntry({ deployment }, stored, event), signed: withheld.length === 0 ? stored.body : null, withheld, inclusion: proofs.inclusion(stored.seq) };
      }),
    };
  },
});
