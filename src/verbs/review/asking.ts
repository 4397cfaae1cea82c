import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { atLeast } from '../../domain/roles.js';
import { requirePerson } from '../../access/person-only.js';
import { utcDay } from '../../projections/review.js';
import { EXPIRING_STATES } from '../../review/review-board.js';
import { approvalSignable } from '../../review/signable.js';
import { whoCanSign } from '../../review/who-can-sign.js';

const whoCanSignAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  people: z.array(z.string()),
  signable: z.boolean(),
  you: z.boolean(),
});

export const whoCanSignVerb = defineVerb({
  name: 'gv.who_can_sign',
  role: 'reader',
  summary: 'The signed-in people who may sign a row (reviewers and admins, never its writer), and whether you may.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: whoCanSignAnswer,
  uses: ['store', 'access', 'review', 'config'],
  handler({ caller, store, access, review, config }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    const people = whoCanSign({ store, config }, row);
    const reviewRow = review.board.reads.row(row.artifact_id);
    return {
      artifact_id: row.artifact_id,
      state: row.state,
      people,
      signable: approvalSignable(row.state, reviewRow),
      you: caller.kind === 'person' && atLeast(caller.role, 'reviewer') && caller.identity !== row.writer_identity,
    };
  },
});

const askToSignAnswer = z.object({ artifact_id: z.string(), to: z.array(z.string()), asked_at: z.string(), event_id: z.string() });

export const askToSignVerb = defineVerb({
  name: 'gv.ask_to_sign',
  role: 'agent',
  summary: 'The signed-in author of a held row asks the people who may sign it (once per row per UTC day); moves nothing.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: askToSignAnswer,
  uses: ['store', 'access', 'review', 'config', 'clock'],
  handler({ caller, store, access, review, config, clock }, p) {
    requirePerson(caller, 'gv.ask_to_sign');
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      if (row.writer_identity !== caller.identity) throw invalidParams('gv.ask_to_sign: only the author of the row may ask', { reason: 'not_the_author' });
      if (!EXPIRING_STATES.has(row.state)) throw lifecycle(`gv.ask_to_sign: the row is ${row.state}, not held`, 'not_held');
      const now = clock.now();
      if (review.board.reads.row(row.artifact_id)?.asked_day === utcDay(now)) {
        throw lifecycle('gv.ask_to_sign: you asked about this row today already; ask again tomorrow (UTC)', 'asked_today');
      }
      const to = whoCanSign({ store, config }, row);
      // Asking moves nothing: the event names the row and the people asked, no state.
      const data = { artifact_id: row.artifact_id, space: row.space, to, ...(row.workarea === null ? {} : { workarea: row.workarea }) };
      const event = store.journal.append('sign-asked', caller.identity, data);
      return { artifact_id: row.artifact_id, to, asked_at: new Date(now).toISOString().slice(11, 16), event_id: event.event_id };
    });
  },
});
