import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { rowEventData } from '../../projections/row-event.js';
import { decidedRow } from './decisions.js';
import { REJECT_CATEGORIES } from '../../domain/rejection-reasons.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { proofParam, provenBy, requireOperatorProof } from '../operator-proof.js';
import { signerClassOf, type SignerClass } from '../../domain/signer-class.js';
import { appendPromotion } from '../../review/promotion.js';
import { approvalSignable, vetoSignable } from '../../review/signable.js';
import { requireEverythingRead } from '../../review/read-before-signing.js';
import { waitsForAnswer } from '../answer-types.js';

/**
 * Where each decision takes the row. `confirm` is a person's third disposition of a flagged
 * row (docs/review.md, "A finding confirmed"): the finding is real and the row stays held.
 */
const ENTERS = { approve: 'L2_SCORED', reject: 'REJECTED', archive: 'ARCHIVED', confirm: 'L1B_FLAGGED' } as const;

const signAnswer = z.union([
  z.object({
    artifact_id: z.string(),
    state: z.string(),
    decision: z.enum(['reject', 'approve', 'archive', 'confirm']),
    event_id: z.string(),
    class: z.enum(['agent', 'model', 'human', 'deployment', 'authority']),
    counts: z.boolean(),
    k_required: z.number().int(),
    k_have: z.number().int(),
  }),
  z.object({
    promoted: z.boolean(),
    waits_for: waitsForAnswer.nullable(),
    why_not: z.string(),
    artifact_id: z.string(),
    state: z.string(),
    decision: z.enum(['reject', 'approve', 'archive', 'confirm']),
    event_id: z.string(),
    class: z.enum(['agent', 'model', 'human', 'deployment', 'authority']),
    counts: z.boolean(),
    k_required: z.number().int(),
    k_have: z.number().int(),
  }),
  z.object({
    state: z.enum(['L3_RATIFIED', 'ACTIVE']),
    promoted: z.boolean(),
    promote_event_id: z.string(),
    provisional: z.boolean(),
    artifact_id: z.string(),
    decision: z.enum(['reject', 'approve', 'archive', 'confirm']),
    event_id: z.string(),
    class: z.enum(['agent', 'model', 'human', 'deployment', 'authority']),
    counts: z.boolean(),
    k_required: z.number().int(),
    k_have: z.number().int(),
  }),
]);

export const signVerb = defineVerb({
  name: 'gv.sign',
  role: 'reviewer',
  summary: "Sign a row: approve (toward quorum; promote true promotes once it is met), reject (a person's is a veto), archive, or on a flagged row confirm (the finding holds; the row stays held).",
  params: z.strictObject({
    artifact_id: artifactIdParam,
    decision: z.enum(['approve', 'reject', 'archive', 'confirm']),
    promote: z.boolean().optional(),
    category: z.enum(REJECT_CATEGORIES).optional(),
    reason: z.string().min(1).max(500).optional(),
    proof: proofParam.optional(),
  }),
  answer: signAnswer,
  uses: ['store', 'access', 'auth', 'review', 'crews', 'config'],
  handler(ctx, p) {
    const { caller, store, auth, review, crews, config } = ctx;
    // A signed-in person signs as a human, and so does the operator with a proof; any other
    // sign is the calling identity's (an agent's), never a human's.
    const operatorKey = p.proof !== undefined && auth.operatorProofs.required ? requireOperatorProof(ctx, p.proof, 'gv.sign') : null;
    const cls: SignerClass = operatorKey !== null ? 'human' : signerClassOf(caller);
    if (p.promote === true && p.decision !== 'approve') throw invalidParams('promote goes with decision approve', { field: 'promote' });
    if (p.category !== undefined && p.decision !== 'reject') throw invalidParams('category goes with decision reject', { field: 'category' });
    if (p.decision === 'confirm' && cls !== 'human') throw lifecycle("gv.sign: only a person's disposition confirms a scanner finding", 'human_required');
    return store.writer.write(() => {
      // A person's veto may stop a pending group's child (the group is then aborted, child_rejected); an approval may not.
      const row = decidedRow(ctx, p.artifact_id, 'gv.sign', p.decision === 'reject' || p.decision === 'archive');
      const reviewRow = review.board.reads.row(row.artifact_id);
      if (p.decision === 'approve' && !approvalSignable(row.state, reviewRow)) {
        if (row.state === 'L1B_FLAGGED') throw lifecycle('gv.sign: a veto-severity finding stands; no signature clears it', 'hard_constraint');
        throw lifecycle(`gv.sign: a row in ${row.state} takes no approving signature`, 'wrong_state');
      }
      if (p.decision === 'confirm' && row.state !== 'L1B_FLAGGED') throw lifecycle(`gv.sign: confirm is the disposition of a flagged row (L1B_FLAGGED), not of one in ${row.state}`, 'wrong_state');
      if (p.decision !== 'approve' && !vetoSignable(row.state)) throw lifecycle(`gv.sign: a row in ${row.state} is not in review`, 'wrong_state');
      if (row.state === 'L1B_FLAGGED' && p.decision === 'approve' && cls !== 'human') {
        throw lifecycle("gv.sign: only a person's disposition clears a scanner finding", 'human_required');
      }
      // Clearing a finding is judging the text it is in: a person reads all of it first, as for a promotion.
      if (row.state === 'L1B_FLAGGED' && p.decision === 'approve') requireEverythingRead({ store }, caller.identity, cls, config.review.read_before_signing, row, 'gv.sign');
      // On a flagged row a person's signature is its disposition: cleared to L2_SCORED, confirmed (it stays held), or rejected.
      const type = row.state === 'L1B_FLAGGED' && p.decision !== 'archive' ? 'disposition' : 'manual-sign';
      const own = {
        decision: p.decision,
        signer_class: cls,
        ...provenBy(operatorKey),
        ...(p.decision === 'reject' ? { reason: p.category ?? (cls === 'human' ? 'vetoed' : 'rejected') } : {}),
        ...(p.decision === 'reject' && p.category !== undefined ? { category: p.category } : {}),
        ...(p.reason === undefined ? {} : { words: p.reason }),
      };
      const event = store.journal.append(type, caller.identity, rowEventData(row, ENTERS[p.decision], own));
      const signed = store.artifacts.byId(row.artifact_id)!;
      const picture = review.board.picture(signed);
      const answer = {
        artifact_id: row.artifact_id,
        state: signed.state,
        decision: p.decision,
        event_id: event.event_id,
        class: cls,
        counts: picture.count.signers.some((s) => s.signer === caller.identity && s.counts),
        k_required: picture.count.k_required,
        k_have: picture.count.k_have,
      };
      if (p.promote !== true) return answer;
      const problem = review.board.promotionProblem(picture, cls);
      if (problem !== null) return { ...answer, promoted: false, waits_for: picture.waitsFor, why_not: problem.words };
      const done = appendPromotion({ store, review, crews, config }, picture, caller.identity, cls);
      return { ...answer, state: done.enters, promoted: done.enters === 'ACTIVE', promote_event_id: done.event.event_id, provisional: done.enters === 'ACTIVE' };
    });
  },
});
