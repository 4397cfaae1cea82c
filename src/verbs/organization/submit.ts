import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, limitParam } from '../param-types.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { buildSubmission, promotionsOf } from '../../submission/submission.js';
import { orgDoorClient } from '../../submission/org-door.js';
import { sendRetraction, sendSubmission } from '../../submission/org-sends.js';
import { asTheDrain } from '../../submission/drain-turn.js';
import { pullOutcomes } from '../../submission/outcome-pull.js';
import type { House } from '../house.js';
import { SUBMISSION_STATES } from '../../projections/submission-reads.js';
import { pullTallyAnswer } from '../answer-types.js';

function requireOrg(house: Pick<House, 'config'>): void {
  if (house.config.org.url === '') {
    throw invalidParams('no organization gate is configured ([org].url)', { reason: 'no_endpoint' });
  }
}

const submissionOf = (house: Pick<House, 'store'>, artifactId: string) => house.store.submissions.of(artifactId);

const submitAnswer = z.union([
  z.object({
    state: z.enum(SUBMISSION_STATES).describe('where the submission stands already: nothing was changed'),
    changed: z.boolean(),
    artifact_id: z.string(),
    submission_id: z.string(),
  }),
  z.object({
    state: z.string(),
    changed: z.boolean(),
    event_id: z.string(),
    artifact_id: z.string(),
    submission_id: z.string(),
  }),
]);

export const submitVerb = defineVerb({
  name: 'gv.submit',
  role: 'reviewer',
  summary: 'Queue a locally promoted claim for the organization gate (submission/1); gv.submit_drain sends it.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: submitAnswer,
  uses: ['store', 'access', 'review', 'deployment', 'config'],
  handler({ caller, store, access, review, deployment, config }, p) {
    requireOrg({ config });
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      // A T-3/T-5 row waits ratified for exactly this: the org's countersign.
      if ((row.state !== 'ACTIVE' && row.state !== 'L3_RATIFIED') || promotionsOf({ store }, row.artifact_id).length === 0) {
        throw lifecycle(`only a claim this gate promoted or ratified is submitted; this one is ${row.state}`, 'not_promoted');
      }
      if (row.erased_seq !== null) throw lifecycle('the content of this row was erased; there are no bytes to submit', 'erased');
      const standing = submissionOf({ store }, row.artifact_id);
      const { id } = buildSubmission({ store, access, review, deployment }, row);
      const answer = { artifact_id: row.artifact_id, submission_id: id };
      // Queued or taken already: nothing to do. A refused body may be queued again once the row changed.
      if (standing && (standing.state !== 'refused' || standing.submission_id === id)) {
        return { ...answer, state: standing.state, changed: false };
      }
      const event = store.journal.append('submission-queued', caller.identity, { artifact_id: row.artifact_id, space: row.space, submission_id: id });
      return { ...answer, state: 'queued', changed: true, event_id: event.event_id };
    });
  },
});

const submitDrainAnswer = z.object({
  queued: z.number().int(),
  sent: z.number().int(),
  accepted: z.number().int(),
  retry: z.number().int(),
  refused: z.number().int(),
  stopped: z.boolean(),
  retracted: z.number().int().describe("retractions the organization took: erased rows whose copy it dropped (or never held)"),
  retracting: z.number().int().describe('erased rows whose retraction still waits to be sent'),
});

export const submitDrainVerb = defineVerb({
  name: 'gv.submit_drain',
  role: 'admin',
  summary: 'Send due retractions of erased rows, then due queued submissions, to the organization gate, one at a time, journaling each outcome.',
  params: z.strictObject({ limit: limitParam(100).optional() }),
  answer: submitDrainAnswer,
  uses: ['store', 'access', 'review', 'deployment', 'config', 'clock', 'log'],
  async handler({ caller, store, access, review, deployment, config, clock, log }, p) {
    requireOrg({ config });
    const house = { store, access, review, deployment, config, log };
    const drained = await asTheDrain(store, async () => {
      const door = orgDoorClient({ config });
      const tally = { sent: 0, accepted: 0, retry: 0, refused: 0, stopped: false, retracted: 0 };
      const limit = p.limit ?? 20;
      try {
        // Retractions first: an erased row's bytes leave the organization before anything new is sent.
        const sends = [
          ...store.submissions.dueRetractions(clock.now(), limit).map((s) => ({ retraction: true, send: () => sendRetraction(house, door, s, caller.identity) })),
          ...store.submissions.due(clock.now(), limit).map((s) => ({ retraction: false, send: () => sendSubmission(house, door, s, caller.identity) })),
        ].slice(0, limit);
        for (const { retraction, send } of sends) {
          const outcome = await send();
          tally.sent += 1;
          if (retraction && outcome === 'accepted') tally.retracted += 1;
          if (outcome === 'stopped') {
            tally.stopped = true;
            break;
          }
          tally[outcome] += 1;
        }
      } finally {
        await door.close();
      }
      return tally;
    });
    if (!drained.ran) throw lifecycle('a drain is already running', 'drain_running');
    return { ...drained.value, queued: store.submissions.queuedCount(), retracting: store.submissions.retractingCount() };
  },
});

export const outcomesPullVerb = defineVerb({
  name: 'gv.outcomes_pull',
  role: 'admin',
  summary: "Pull the organization gate's outcomes now (gate serve also pulls every [org].poll_every_ms), journaling each countersign or refuse once.",
  params: z.strictObject({}),
  answer: pullTallyAnswer,
  uses: ['store', 'deployment', 'config', 'log'],
  handler({ store, deployment, config, log }) {
    return pullOutcomes({ store, deployment, config, log });
  },
});
