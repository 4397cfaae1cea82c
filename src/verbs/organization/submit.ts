import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, limitParam } from '../param-types.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { buildSubmission, promotionsOf } from '../../submission/submission.js';
import { orgDoorClient } from '../../submission/org-door.js';
import { GateClientError, type SubmitOutcome } from '@gate/client';
import { pullOutcomes } from '../../submission/outcome-pull.js';
import type { Store } from '../../store/store.js';
import type { House } from '../house.js';
import { pullTallyAnswer } from '../answer-types.js';

function requireOrg(house: Pick<House, 'config'>): void {
  if (house.config.org.url === '') {
    throw invalidParams('no organization gate is configured ([org].url)', { reason: 'no_endpoint' });
  }
}

const submissionOf = (house: Pick<House, 'store'>, artifactId: string) => house.store.submissions.of(artifactId);

const submitAnswer = z.union([
  z.object({
    state: z.enum(['refused', 'queued', 'accepted']),
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

/** One drain at a time per gate, so no submission is sent twice at once. */
const draining = new WeakSet<Store>();

const submitDrainAnswer = z.object({
  queued: z.number().int(),
  sent: z.number().int(),
  accepted: z.number().int(),
  retry: z.number().int(),
  refused: z.number().int(),
  stopped: z.boolean(),
});

export const submitDrainVerb = defineVerb({
  name: 'gv.submit_drain',
  role: 'admin',
  summary: 'Send due queued submissions to the organization gate, one at a time, journaling each outcome.',
  params: z.strictObject({ limit: limitParam(100).optional() }),
  answer: submitDrainAnswer,
  async handler({ caller, store, access, review, deployment, config, clock }, p) {
    requireOrg({ config });
    if (draining.has(store)) throw lifecycle('a drain is already running', 'drain_running');
    draining.add(store);
    const door = orgDoorClient({ config });
    const tally = { sent: 0, accepted: 0, retry: 0, refused: 0, stopped: false };
    try {
      const due = store.submissions.due(clock.now(), p.limit ?? 20);
      for (const s of due) {
        const row = store.artifacts.byId(s.artifact_id)!;
        const body = buildSubmission({ store, access, review, deployment }, row);
        let outcome: SubmitOutcome | { outcome: 'retry'; status: null; retry_after_ms: null; error: string };
        try {
          outcome = await door.submit(s.artifact_id, body);
        } catch (error) {
          // Unreachable, timed out or an answer we cannot read: the door may hold it, and a PUT repeats safely.
          if (!(error instanceof GateClientError)) throw error;
          outcome = { outcome: 'retry', status: null, retry_after_ms: null, error: `${error.kind}: ${error.message}` };
        }
        tally.sent += 1;
        const data: Record<string, unknown> = {
          artifact_id: s.artifact_id,
          space: s.space,
          submission_id: body.id,
          outcome: outcome.outcome,
          status: outcome.status,
          attempt: s.attempts + 1,
        };
        if (outcome.outcome === 'retry') data['retry_after_ms'] = outcome.retry_after_ms ?? config.org.retry_after_ms;
        if (outcome.outcome === 'accepted' && typeof outcome.answer['state'] === 'string') data['org_state'] = outcome.answer['state'];
        if ('error' in outcome) data['error'] = outcome.error.slice(0, 500);
        await store.writer.write(() => store.journal.append('submission-outcome', caller.identity, data));
        if (outcome.outcome === 'stopped') {
          tally.stopped = true;
          break;
        }
        tally[outcome.outcome] += 1;
      }
    } finally {
      draining.delete(store);
      await door.close();
    }
    return { ...tally, queued: store.submissions.queuedCount() };
  },
});

export const outcomesPullVerb = defineVerb({
  name: 'gv.outcomes_pull',
  role: 'admin',
  summary: "Pull the organization gate's outcomes now (gate serve also pulls every [org].poll_every_ms), journaling each countersign or refuse once.",
  params: z.strictObject({}),
  answer: pullTallyAnswer,
  handler({ store, deployment, config, log }) {
    return pullOutcomes({ store, deployment, config, log });
  },
});
