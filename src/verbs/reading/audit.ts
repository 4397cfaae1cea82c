import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { signedHistory } from '../../events/signed-history.js';
import { DECISIONS, envelopeOf } from '../../projections/row-envelope.js';
import { derivesFromOf } from '../../projections/artifact-reads.js';
import { eventFromRow } from '../../forms/event.js';
import { answerProofs, checkpointSchema, keyRotationsSchema } from './log-proofs.js';
import { provenEventAnswer } from '../answer-types.js';

const auditAnswer = z.object({
  artifact_id: z.string(),
  deployment_id: z.string(),
  checkpoint: checkpointSchema,
  key_rotations: keyRotationsSchema,
  envelope: z.object({
    derives_from: z.array(z.string()).describe('the parents you may read'),
    derives_from_withheld: z.number().int().describe('parents left out: rows you may not read'),
    content_hash: z.string(),
    content_type: z.string(),
    trust_class: z.string(),
    source_uri: z.string(),
    writer_identity: z.string(),
    deployment_id: z.string(),
    ingest_ts: z.number().int(),
    size_bytes: z.number().int(),
  }),
  decisions: z.array(
    provenEventAnswer.extend({
      in_favour_of: z.string().nullable().optional().describe('on a refusal in favour of another row: that row, null when you may not read it'),
    }),
  ),
});

export const auditVerb = defineVerb({
  name: 'gv.audit',
  role: 'reader',
  summary: "A row's envelope and its decisions, each with a verified signature and its inclusion proof in the signed checkpoint answered beside them.",
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: auditAnswer,
  uses: ['store', 'access', 'deployment'],
  handler({ caller, store, access, deployment }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    const readableId = (id: unknown) => {
      if (typeof id !== 'string') return null;
      const other = store.artifacts.byId(id);
      return other && access.visibility.canRead(caller, other) ? id : null;
    };
    const parents = derivesFromOf(row);
    const shownParents = parents.filter((id) => readableId(id) !== null);
    const payloads = new Map(
      store.journalReads.eventsOf(row.artifact_id).map(
        (r) => [r.event_id, eventFromRow(r).data],
      ),
    );
    const proofs = answerProofs({ store, deployment });
    const decisions = signedHistory({ store, deployment }, row.artifact_id)
      .filter((e) => DECISIONS.has(e.type))
      .map((e) => {
        const data = payloads.get(e.event_id) ?? {};
        const proven = { ...e, inclusion: proofs.inclusion(e.seq) };
        // Below reviewer, a payload id naming an unreadable row is null (docs/protocol.md#gvaudit).
        return 'in_favour_of' in data ? { ...proven, in_favour_of: readableId(data['in_favour_of']) } : proven;
      });
    return {
      artifact_id: row.artifact_id,
      deployment_id: deployment.deploymentId,
      checkpoint: proofs.checkpoint,
      ...proofs.rotations,
      envelope: {
        ...envelopeOf(row, deployment.deploymentId),
        derives_from: shownParents,
        derives_from_withheld: parents.length - shownParents.length,
      },
      decisions,
    };
  },
});
