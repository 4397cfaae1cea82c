import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { PREVIEW_CHARS } from '../reading/node.js';
import { pendingSupersedes } from '../curation/replacement-group-view.js';
import type { Caller } from '../../access/caller.js';
import { producerOf, type ArtifactRow } from '../../projections/artifact-reads.js';
import { WAITING_STATES } from '../../projections/review-reads.js';
import { whoCanSign } from '../../review/who-can-sign.js';
import { openQuestionsFor } from '../../questions/open-questions.js';
import { evidenceRequests } from '../../review/evidence-requests.js';
import type { House } from '../house.js';
import { evidenceRequestAnswer, placedFindingAnswer, scannerFindingsAnswer, waitsForAnswer } from '../answer-types.js';

const HELD_STEERING_SHOWN = 50;

function item(house: Pick<House, 'store' | 'access' | 'review' | 'config'>, caller: Caller, row: ArtifactRow) {
  const p = house.review.board.picture(row);
  const masked = house.store.artifacts.servedBody(row, 'masked');
  const verdicts = p.current
    .filter((s) => s.type === 'verdict')
    .map((s) => {
      const a = s.assessment_id === null ? undefined : house.review.board.reads.assessment(s.assessment_id);
      return { model_label: s.signer, stance: s.stance, decision: s.decision, score: a?.score ?? null, rubric: s.rubric, ts: s.ts, event_id: s.event_id };
    });
  // Each configured stance as the picture counts it, with how its last run failed when it has not answered.
  const stances = p.stances.map((s) => {
    const newest = [...verdicts].reverse().find((v) => v.stance === s.stance && v.model_label === s.model_label);
    return { stance: s.stance, backend: s.backend, model_label: s.model_label, decision: s.decision, score: newest?.score ?? null, ...(s.last_run === null ? {} : { last_run: s.last_run }) };
  });
  return {
    artifact_id: row.artifact_id,
    state: row.state,
    waits_for: p.waitsFor,
    stances,
    waiting_since: p.review?.review_since ?? row.ts,
    supersedes: pendingSupersedes(house, caller, row.artifact_id),
    preview: masked === null ? null : masked.slice(0, PREVIEW_CHARS),
    content_type: row.content_type,
    trust_class: row.trust_class,
    writer_identity: row.writer_identity,
    ingest_ts: row.ts,
    source_uri: row.source_uri,
    // What was found and where, never the matched text (the excerpt stays inside).
    findings: house.store.artifacts.placedFindings(row.artifact_id),
    verdicts,
    expires_at: p.expires?.at ?? null,
    expires_in_s: p.expires?.in_s ?? null,
    space: row.space,
    workarea: row.workarea,
    producer: producerOf(row),
    kind: row.kind,
    // The envelope's attachments, then any its writer added as evidence (gv.add_evidence): all are read before a signature counts.
    attachments: house.store.attachments.ofRow(row.artifact_id).map((a) => ({ sha256: a.content_hash })),
    who_can_sign: whoCanSign(house, row),
    // The newest request for evidence: what is asked while the row waits in NEEDS_EVIDENCE, and once answered what came back.
    evidence_request: evidenceRequests(house, row.artifact_id).at(-1) ?? null,
    self_authored: row.writer_identity === caller.identity,
  };
}

const waitingRowAnswer = z.object({
    artifact_id: z.string(),
    state: z.string(),
    waits_for: waitsForAnswer.nullable(),
    stances: z.array(z.object({
      last_run: z.object({
        state: z.string(),
        failure: z.string().nullable(),
        detail: z.string().nullable(),
      }).optional(),
      stance: z.string(),
      backend: z.string(),
      model_label: z.string(),
      decision: z.enum(['reject', 'approve']).nullable(),
      score: z.number().nullable(),
    })),
    waiting_since: z.number(),
    supersedes: z.object({
      artifact_ids: z.array(z.string()),
      operation: z.enum(['split', 'merge', 'supersede']),
      via: z.string(),
      group_id: z.string(),
    }).nullable(),
    preview: z.string().nullable(),
    content_type: z.string(),
    trust_class: z.string(),
    writer_identity: z.string(),
    ingest_ts: z.number().int(),
    source_uri: z.string(),
    findings: z.array(placedFindingAnswer),
    verdicts: z.array(z.object({
      model_label: z.string(),
      stance: z.string().nullable(),
      decision: z.string(),
      score: z.number().nullable(),
      rubric: z.string().nullable(),
      ts: z.number().int(),
      event_id: z.string(),
    })),
    expires_at: z.number().int().nullable(),
    expires_in_s: z.number().int().nullable(),
    space: z.string(),
    workarea: z.string().nullable(),
    producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
    kind: z.string().nullable(),
    attachments: z.array(z.object({ sha256: z.string() })),
    who_can_sign: z.array(z.string()),
    evidence_request: evidenceRequestAnswer.nullable(),
    self_authored: z.boolean(),
  });

const reviewAnswer = z.object({
  questions: z.array(z.object({
    question: z.string(),
    body: z.string().nullable(),
    scanner_findings: scannerFindingsAnswer,
    space: z.string(),
    workarea: z.string().nullable(),
    producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
    asker: z.string(),
    addressed_to: z.object({ names: z.array(z.string()).optional(), kinds: z.array(z.string()).optional() }).nullable(),
    named: z.boolean(),
    promoted_at: z.number().int().nullable(),
    reason: z.string().nullable(),
    wait_minutes: z.number().int().nullable(),
    minutes_left: z.number().int().nullable(),
  })),
  questions_truncated: z.boolean(),
  held_steering: z.array(waitingRowAnswer),
  held_steering_truncated: z.boolean(),
  items: z.array(waitingRowAnswer),
  held_back: z.number().int(),
  total_waiting: z.number().int(),
  cap: z.number().int(),
});

export const reviewVerb = defineVerb({
  name: 'gv.review',
  role: 'reviewer',
  summary: 'The review queue: rows waiting, oldest first, each with what it waits for, its verdicts and who may sign it; and the questions waiting for people, those naming you first.',
  params: z.strictObject({ cap: z.number().int().min(1).max(500).optional() }),
  answer: reviewAnswer,
  uses: ['store', 'access', 'review', 'config', 'clock'],
  handler({ caller, store, access, review, config, clock }, p) {
    const cap = p.cap ?? 50;
    const total = store.reviews.waitingCount();
    const steering = store.reviews.waitingSteering(HELD_STEERING_SHOWN + 1);
    // Rows this reviewer deferred since they last moved are held back; the queue reads past them to fill the cap.
    const heldBack = new Set<string>();
    for (const [id, at] of review.board.deferrals.marksOf(caller.identity)) {
      const row = store.artifacts.byId(id);
      if (row !== undefined && (WAITING_STATES as readonly string[]).includes(row.state) && row.kind !== 'steering' && at >= row.state_ts) heldBack.add(id);
    }
    const items = store.reviews
      .waitingRows(cap + heldBack.size)
      .filter((row) => !heldBack.has(row.artifact_id))
      .slice(0, cap)
      .map((row) => item({ store, access, review, config }, caller, row));
    return {
      held_steering: steering.slice(0, HELD_STEERING_SHOWN).map((r) => item({ store, access, review, config }, caller, r)),
      held_steering_truncated: steering.length > HELD_STEERING_SHOWN,
      items,
      held_back: heldBack.size,
      total_waiting: total,
      cap,
      // Questions waiting for people, those naming the caller first (README "Questions").
      ...openQuestionsFor({ store, access, clock }, caller),
    };
  },
});
