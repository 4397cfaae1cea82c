import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { rowEventData } from '../../projections/row-event.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { signerClassOf } from '../../domain/signer-class.js';
import { stricterClass, type TrustClass } from '../../domain/kinds.js';
import { isFlagging } from '../../../workers/scan/finding.js';
import { mergeScan, scanEventFields, scanRowAgain } from '../../scanning/rescan.js';
import { attachmentSources, attachmentsParam, envelopeAttachments, takesAttachments } from '../writing/ingest-attachments.js';
import { NEEDS_EVIDENCE_DECISION } from '../../domain/states.js';
import { openEvidenceRequest } from '../../review/evidence-requests.js';
import { decidedRow } from './decisions.js';

/** States a reviewer may send back for evidence: waiting for review, unflagged (a finding needs a person's disposition first). */
const SENDABLE_BACK: ReadonlySet<string> = new Set(['L1_SCANNED', 'L2_SCORED']);

/** Attachments a row may hold in all, its envelope's and every piece of evidence added to it. */
export const ATTACHMENTS_PER_ROW = 16;

const requestEvidenceAnswer = z.object({
  artifact_id: z.string(),
  state: z.literal('NEEDS_EVIDENCE'),
  leaves: z.string(),
  event_id: z.string(),
});

export const requestEvidenceVerb = defineVerb({
  name: 'gv.request_evidence',
  role: 'reviewer',
  summary: "Send a row waiting for review back to its writer for evidence (ratify, NEEDS_EVIDENCE), saying what is missing; the writer's gv.add_evidence returns it to review.",
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().trim().min(1).max(500) }),
  answer: requestEvidenceAnswer,
  uses: ['store', 'access'],
  handler(ctx, p) {
    const { caller, store } = ctx;
    return store.writer.write(() => {
      const row = decidedRow(ctx, p.artifact_id, 'gv.request_evidence');
      if (!SENDABLE_BACK.has(row.state)) {
        throw lifecycle(`gv.request_evidence: a row in ${row.state} is not waiting for review (L1_SCANNED or L2_SCORED)`, 'wrong_state');
      }
      // Evidence comes as attachments: a row of a kind that carries none could never answer the request.
      if (!takesAttachments(row.kind)) throw lifecycle(`gv.request_evidence: a ${row.kind} row carries no attachments, so it cannot take evidence`, 'takes_no_evidence');
      // docs/protocol.md#states: ratify enters L3_RATIFIED, NEEDS_EVIDENCE or REJECTED; this one is the request. Its words are
      // `asks`: written for the row's writer, served to them and to reviewers by gv.node, never in an event.
      const own = { signer_class: signerClassOf(caller), decision: NEEDS_EVIDENCE_DECISION, asks: p.reason };
      const event = store.journal.append('ratify', caller.identity, rowEventData(row, 'NEEDS_EVIDENCE', own));
      return { artifact_id: row.artifact_id, state: 'NEEDS_EVIDENCE' as const, leaves: row.state, event_id: event.event_id };
    });
  },
});

const addEvidenceAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  trust_class: z.string(),
  evidence_event_id: z.string(),
  scan_event_id: z.string(),
  attachments: z.array(z.object({ sha256: z.string(), media_type: z.string(), size_bytes: z.number().int() })),
});

export const addEvidenceVerb = defineVerb({
  name: 'gv.add_evidence',
  role: 'agent',
  summary:
    'The writer of a row sent back for evidence attaches it (completed uploads, as gv.ingest names them); the row is scanned again with its evidence and returns to review (L1_SCANNED, or L1B_FLAGGED on a new finding).',
  params: z.strictObject({ artifact_id: artifactIdParam, attachments: attachmentsParam.min(1) }),
  // A banned writer adds nothing, as at any write door, and no evidence from a banned source.
  door: { sources: (p) => attachmentSources(p.attachments) },
  answer: addEvidenceAnswer,
  uses: ['store', 'access', 'pipeline'],
  async handler({ caller, store, access, pipeline }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    const requireAsked = (state: string) => {
      if (row.writer_identity !== caller.identity) throw invalidParams('gv.add_evidence: only the writer of the row adds its evidence', { reason: 'not_the_author' });
      if (state !== 'NEEDS_EVIDENCE') throw lifecycle(`gv.add_evidence: the row is ${state}; evidence is added to a row a reviewer sent back (NEEDS_EVIDENCE)`, 'not_sent_back');
    };
    requireAsked(row.state);
    access.capabilities.require(caller, row.space, 'contribute');
    // An upload a crash cut at its last chunk is completed by the start: naming uploads waits for that.
    await pipeline.uploadRecovery;
    const attachments = envelopeAttachments({ store }, caller, p.attachments, row.kind);
    // The row is scanned again with the current scanner, the new evidence with it (its text and
    // its sources), so the scan that returns the row to review is a real one.
    const result = await scanRowAgain({ store, pipeline }, row, attachments);
    return store.writer.write(() => {
      // Read again inside the transaction: a reviewer, an expiry or another call may have moved the row during the scan.
      const now = store.artifacts.byId(row.artifact_id)!;
      requireAsked(now.state);
      const held = store.attachments.ofRow(now.artifact_id);
      const twice = attachments.findIndex((a) => held.some((h) => h.content_hash === a.sha256));
      if (twice >= 0) throw invalidParams(`attachment ${attachments[twice]!.sha256.slice(0, 23)} is already on the row`, { field: `attachments.${twice}.sha256`, reason: 'already_attached' });
      if (held.length + attachments.length > ATTACHMENTS_PER_ROW) {
        throw invalidParams(`a row holds at most ${ATTACHMENTS_PER_ROW} attachments; it has ${held.length}`, { field: 'attachments', reason: 'too_many_attachments' });
      }
      const request = openEvidenceRequest({ store }, now);
      const added = store.journal.append('evidence-added', caller.identity, {
        artifact_id: now.artifact_id,
        space: now.space,
        ...(now.workarea === null ? {} : { workarea: now.workarea }),
        ...(request === null ? {} : { request: request.event_id }),
        attachments,
      });
      const merged = mergeScan({ store }, now, result, false);
      const enters = merged.added.some((f) => isFlagging(f.severity)) ? 'L1B_FLAGGED' : 'L1_SCANNED';
      // As at ingest: an attachment fetched from somewhere is third-party content, and the row rises to T-4.
      const trustClass = attachments.some((a) => a.source_uri !== undefined) ? stricterClass(now.trust_class as TrustClass, 'T-4') : now.trust_class;
      const scan = store.journal.append(
        'scan',
        caller.identity,
        rowEventData(now, enters, { ...scanEventFields({ store }, now, merged, result.scanner, true), trust_class: trustClass, evidence: added.event_id }),
      );
      return {
        artifact_id: now.artifact_id,
        state: enters,
        trust_class: trustClass,
        evidence_event_id: added.event_id,
        scan_event_id: scan.event_id,
        attachments: attachments.map((a) => ({ sha256: a.sha256, media_type: a.media_type, size_bytes: a.size_bytes })),
      };
    });
  },
});
