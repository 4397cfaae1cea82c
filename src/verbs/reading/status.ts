import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { reasonOf } from '../row-metadata.js';
import { isHeld, isPromoted } from '../../domain/states.js';
import { eventFromRow, type JournalRow } from '../../journal/event.js';
import { isServedType, servedEvent } from '../../events/served-event.js';
import { verifyWithDeploymentId } from '../../journal/deployment-key.js';
import type { Gate } from '../../gate.js';
import { answerProofs } from './log-proofs.js';

export const statusVerb = defineVerb({
  name: 'gv.status',
  role: 'reader',
  summary: "A row's position and the reason it is there.",
  params: z.strictObject({ artifact_id: artifactIdParam }),
  handler({ gate, caller }, p) {
    const row = gate.readableArtifact(caller, p.artifact_id);
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

/**
 * Each served event of a row with its signature, checked here against the deployment key.
 * Internal events about a row (who was served its attachments) stay inside.
 */
export function signedHistory(gate: Gate, artifactId: string) {
  const rows = gate.db.prepare('SELECT * FROM journal WHERE artifact_id = ? ORDER BY seq').all(artifactId) as JournalRow[];
  // Internal events (a reviewer run, an assessment's words and score) stay inside the gate.
  return rows.filter((row) => isServedType(row.type)).map((row) => {
    const event = eventFromRow(row);
    return {
      ...servedEvent(event),
      seq: row.seq,
      prev: row.prev,
      sig: row.sig,
      verified: verifyWithDeploymentId(gate.deploymentId, row.body, row.sig),
    };
  });
}

export const whyVerb = defineVerb({
  name: 'gv.why',
  role: 'reader',
  summary: 'Every journal event that moved a row, in order, with signatures, each with its inclusion proof in the signed checkpoint answered beside them.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  handler({ gate, caller }, p) {
    const row = gate.readableArtifact(caller, p.artifact_id);
    const proofs = answerProofs(gate);
    return {
      artifact_id: row.artifact_id,
      state: row.state,
      deployment_id: gate.deploymentId,
      checkpoint: proofs.checkpoint,
      events: signedHistory(gate, row.artifact_id).map((e) => ({ ...e, inclusion: proofs.inclusion(e.seq) })),
    };
  },
});
