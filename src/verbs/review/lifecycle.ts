import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { rowEventData } from '../../projections/row-event.js';
import { GateError, ErrorCode, invalidParams, lifecycle } from '../../gate-error.js';
import { requirePerson } from '../../access/person-only.js';
import { isPromoted } from '../../domain/states.js';
import { pendingGroupNaming } from '../../review/promotion.js';
import { EXPIRING_STATES } from '../../review/review-board.js';

/** Reopens per claim (docs/protocol.md#limits). */
export const MAX_REOPENS = 3;

const cancelAnswer = z.object({ artifact_id: z.string(), state: z.string(), status: z.string(), event_id: z.string() });

export const cancelVerb = defineVerb({
  name: 'gv.cancel',
  role: 'reader',
  summary: 'The signed-in person who wrote a held row withdraws it (REJECTED, status cancelled); words and events are kept.',
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().min(1).max(500).optional() }),
  answer: cancelAnswer,
  uses: ['store', 'access', 'review'],
  handler({ caller, store, access, review }, p) {
    requirePerson(caller, 'gv.cancel');
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      if (row.writer_identity !== caller.identity) throw invalidParams('gv.cancel: only the person who wrote the row may cancel it', { reason: 'not_the_author' });
      if (isPromoted(row.state)) throw lifecycle('gv.cancel: the row is promoted', 'promoted');
      if (row.state === 'L3_RATIFIED') throw lifecycle('gv.cancel: the row is being promoted', 'being_promoted');
      if (!EXPIRING_STATES.has(row.state)) throw lifecycle(`gv.cancel: the row is ${row.state}, not held`, 'not_held');
      const group = pendingGroupNaming({ store }, row.artifact_id);
      if (group !== null) {
        throw new GateError(ErrorCode.lifecycle, `gv.cancel: pending replacement group ${group} names the row`, { reason: 'replacement_pending', group_id: group });
      }
      const epoch = review.board.reads.row(row.artifact_id)?.epoch ?? 0;
      const signed = review.board.reads
        .signatures(row.artifact_id)
        .some((s) => s.epoch === epoch && s.class === 'human' && (s.type === 'manual-sign' || s.type === 'disposition'));
      if (signed) throw lifecycle('gv.cancel: a person has signed the row', 'signed');
      const own = { reason: 'cancelled', signer_class: 'human', ...(p.reason === undefined ? {} : { words: p.reason }) };
      const event = store.journal.append('cancel', caller.identity, rowEventData(row, 'REJECTED', own));
      return { artifact_id: row.artifact_id, state: 'REJECTED', status: 'cancelled', event_id: event.event_id };
    });
  },
});

const reopenAnswer = z.object({ artifact_id: z.string(), state: z.string(), reopens: z.number(), event_id: z.string() });

export const reopenVerb = defineVerb({
  name: 'gv.reopen',
  role: 'reviewer',
  summary: 'A person reopens a rejected row (at most three times): back to L1_SCANNED, or L1B_FLAGGED while a veto finding stands.',
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().min(1).max(500) }),
  answer: reopenAnswer,
  uses: ['store', 'access', 'review', 'config'],
  handler({ caller, store, access, review, config }, p) {
    requirePerson(caller, 'gv.reopen');
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      // A single developer may reopen their own in development; in production a second person does.
      if (row.writer_identity === caller.identity && config.deployment.mode !== 'development') {
        throw lifecycle('gv.reopen: the author may not reopen their own row', 'self_authored');
      }
      if (row.state !== 'REJECTED') throw lifecycle(`gv.reopen: only a rejected row is reopened, not one in ${row.state}`, 'wrong_state');
      const reviewRow = review.board.reads.row(row.artifact_id);
      if (reviewRow === undefined) throw lifecycle('gv.reopen: the row was never in review', 'wrong_state');
      if (reviewRow.cancelled === 1) throw lifecycle('gv.reopen: its author cancelled the row', 'cancelled');
      if (reviewRow.epoch >= MAX_REOPENS) throw lifecycle(`gv.reopen: the row was reopened ${MAX_REOPENS} times already`, 'reopen_limit');
      const enters = reviewRow.veto === 1 ? 'L1B_FLAGGED' : 'L1_SCANNED';
      const reopens = reviewRow.epoch + 1;
      const event = store.journal.append('reopen', caller.identity, rowEventData(row, enters, { reopens, words: p.reason, signer_class: 'human' }));
      return { artifact_id: row.artifact_id, state: enters, reopens, event_id: event.event_id };
    });
  },
});
