import { z } from 'zod';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { rowEventData } from '../../projections/row-event.js';
import { requireSupersession, supersedesEventData } from '../writing/supersedes-rule.js';
import { GateError, ErrorCode, invalidParams, lifecycle } from '../../gate-error.js';
import { QUARANTINE_STATES, type ArtifactState } from '../../domain/states.js';
import { REJECT_CATEGORIES } from '../../domain/rejection-reasons.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import { requireEverythingRead } from '../../review/read-before-signing.js';
import { signerClassOf } from '../../domain/signer-class.js';
import { appendPromotion, pendingGroupChild, promotionEnters } from '../../review/promotion.js';
import { requireSheetPromotable } from '../../crews/sheet-checks.js';

/**
 * Reads and checks the row a reviewer decides, inside the journal transaction, so two
 * decisions racing cannot both apply: readable, not the decider's own, and (unless the
 * verb may move it) not a child of a pending replacement group, which moves with its group.
 */
export function decidedRow(ctx: VerbContext<'store' | 'access'>, id: string, verb: string, mayMoveGroupChild = false): ArtifactRow {
  const { caller, store, access } = ctx;
  const row = access.readableArtifact(caller, id);
  if (row.writer_identity === caller.identity) throw lifecycle(`${verb}: a reviewer never decides a row they wrote`, 'self_authored');
  const group = mayMoveGroupChild ? null : pendingGroupChild({ store }, row.artifact_id);
  if (group !== null) {
    throw new GateError(ErrorCode.lifecycle, `${verb}: the row is named by pending replacement group ${group}; it moves with the group`, {
      reason: 'replacement_pending',
      group_id: group,
    });
  }
  return row;
}

const promoteAnswer = z.object({
  supersedes: z.string().optional(),
  relation_event_id: z.string().optional(),
  artifact_id: z.string(),
  state: z.enum(['L3_RATIFIED', 'ACTIVE']),
  provisional: z.boolean(),
  event_id: z.string(),
  k_required: z.number().int(),
  k_have: z.number().int(),
});

export const promoteVerb = defineVerb({
  name: 'gv.promote',
  role: 'reviewer',
  summary:
    "Promote a row once its quorum is met (your approval counts by your class and the space's review mode); with supersedes, the promoted row supersedes that ACTIVE parent in the same act.",
  params: z.strictObject({ artifact_id: artifactIdParam, supersedes: artifactIdParam.optional() }),
  answer: promoteAnswer,
  uses: ['store', 'access', 'review', 'crews', 'config'],
  handler(ctx, p) {
    const { caller, store, access, review, crews, config } = ctx;
    if (p.supersedes === p.artifact_id) throw invalidParams('gv.promote: a row cannot supersede itself', { field: 'supersedes' });
    return store.writer.write(() => {
      const row = decidedRow(ctx, p.artifact_id, 'gv.promote');
      const parent = p.supersedes === undefined ? null : access.readableArtifact(caller, p.supersedes);
      if (row.state === 'L1B_FLAGGED') throw lifecycle("gv.promote: a flagged row needs a person's disposition before it can be promoted", 'wrong_state');
      if (row.state === 'L3_RATIFIED') throw lifecycle('gv.promote: the row is ratified and waits for a second authority to countersign', 'countersign');
      if (row.state !== 'L1_SCANNED' && row.state !== 'L2_SCORED') throw lifecycle(`gv.promote: a row in ${row.state} cannot be promoted`, 'wrong_state');
      const cls = signerClassOf(caller);
      requireEverythingRead({ store }, caller.identity, cls, config.review.read_before_signing, row, 'gv.promote');
      const picture = review.board.picture(row, { signer: caller.identity, class: cls, type: 'promote', decision: 'promote', stance: null, seq: Number.MAX_SAFE_INTEGER });
      const problem = review.board.promotionProblem(picture, cls);
      if (problem !== null) {
        throw new GateError(ErrorCode.lifecycle, `gv.promote: ${problem.words}`, {
          reason: problem.reason,
          ...(picture.waitsFor === null ? {} : { waits_for: picture.waitsFor }),
          k_required: picture.count.k_required,
          k_have: picture.count.k_have,
        });
      }
      // Every check runs before the first append, so a refused supersession leaves the row unpromoted.
      if (parent !== null) requireSupersession({ store }, 'gv.promote', row, parent, promotionEnters(picture));
      const sheet = crews.sheets.sheetOf(row);
      if (sheet !== null) requireSheetPromotable({ store, crews }, caller, row, sheet);
      const done = appendPromotion({ store, review, crews, config }, picture, caller.identity, cls);
      const relation = parent === null ? null : store.journal.append('relation', caller.identity, supersedesEventData(row, parent));
      return {
        artifact_id: row.artifact_id,
        state: done.enters,
        provisional: done.enters === 'ACTIVE',
        event_id: done.event.event_id,
        k_required: picture.count.k_required,
        k_have: picture.count.k_have,
        ...(parent === null ? {} : { supersedes: parent.artifact_id, relation_event_id: relation!.event_id }),
      };
    });
  },
});

const rejectAnswer = z.object({
  category: z.enum(['policy', 'off-scope', 'quality', 'duplicate', 'unreadable']).optional(),
  artifact_id: z.string(),
  state: z.string(),
  event_id: z.string(),
});

export const rejectVerb = defineVerb({
  name: 'gv.reject',
  role: 'reviewer',
  summary: 'Reject a row in quarantine, with a category and optionally the row it loses to.',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    reason: z.string().min(1).max(500).optional(),
    category: z.enum(REJECT_CATEGORIES).optional(),
    in_favour_of: artifactIdParam.optional(),
  }),
  answer: rejectAnswer,
  uses: ['store', 'access'],
  handler(ctx, p) {
    const { caller, store, access } = ctx;
    if (p.in_favour_of !== undefined) {
      if (p.in_favour_of === p.artifact_id) throw lifecycle('gv.reject: a row cannot lose to itself', 'in_favour_of_self');
      access.readableArtifact(caller, p.in_favour_of);
    }
    return store.writer.write(() => {
      const row = decidedRow(ctx, p.artifact_id, 'gv.reject');
      if (!QUARANTINE_STATES.has(row.state as ArtifactState)) throw lifecycle(`gv.reject: a row in ${row.state} is not in quarantine`, 'wrong_state');
      const category = p.category ?? (p.in_favour_of !== undefined ? 'duplicate' : undefined);
      const own = {
        signer_class: signerClassOf(caller),
        decision: 'reject',
        // The reason is a closed word (the category, else a plain rejection); the reviewer's words stay in the journal.
        reason: category ?? 'rejected',
        ...(category === undefined ? {} : { category }),
        ...(p.reason === undefined ? {} : { words: p.reason }),
        ...(p.in_favour_of === undefined ? {} : { in_favour_of: p.in_favour_of }),
      };
      const event = store.journal.append('reject', caller.identity, rowEventData(row, 'REJECTED', own));
      return { artifact_id: row.artifact_id, state: 'REJECTED', event_id: event.event_id, ...(category ? { category } : {}) };
    });
  },
});

const demoteAnswer = z.object({ artifact_id: z.string(), state: z.string(), event_id: z.string() });

export const demoteVerb = defineVerb({
  name: 'gv.demote',
  role: 'reviewer',
  summary: 'Withdraw an admitted row: ACTIVE to DEMOTED (content kept), or a ratified row back to L2_SCORED.',
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().min(1).max(500).optional() }),
  answer: demoteAnswer,
  uses: ['store', 'access'],
  handler(ctx, p) {
    const { caller, store } = ctx;
    return store.writer.write(() => {
      // A demote may take a prepared child back to L2_SCORED: its group's activation then refuses child_moved.
      const row = decidedRow(ctx, p.artifact_id, 'gv.demote', true);
      // An ACTIVE row leaves readers; a ratified row awaiting its countersign goes back to review.
      const enters = row.state === 'ACTIVE' ? 'DEMOTED' : row.state === 'L3_RATIFIED' ? 'L2_SCORED' : null;
      if (enters === null) throw lifecycle(`gv.demote: only an ACTIVE or ratified row can be demoted, not one in ${row.state}`, 'wrong_state');
      // The reviewer's words stay in the journal: the row's status reason is its state's (demoted).
      const own = { signer_class: signerClassOf(caller), decision: 'demote', ...(p.reason ? { words: p.reason } : {}) };
      const event = store.journal.append('demote', caller.identity, rowEventData(row, enters, own));
      return { artifact_id: row.artifact_id, state: enters, event_id: event.event_id };
    });
  },
});
