import { GateClientError, type OrgDoorClient, type SubmitOutcome } from '@gate/client';
import type { GateConfig } from '../config/keys.js';
import type { Log } from '../log.js';
import type { Deployment } from '../journal/deployment.js';
import type { SubmissionRow } from '../projections/submission-reads.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';
import type { ReviewPart } from '../review/review-part.js';
import { buildSubmission } from './submission.js';
import { buildRetraction } from './retraction.js';
import { asTheDrain } from './drain-turn.js';
import { orgDoorClient } from './org-door.js';

export type SendOutcome = SubmitOutcome['outcome'];

type Sent = SubmitOutcome | { outcome: 'retry'; status: null; retry_after_ms: null; error: string };

/** One PUT at the organization's door; unreachable, timed out or unreadable is a retry: the door may hold it, and a PUT repeats safely. */
async function put(send: () => Promise<SubmitOutcome>): Promise<Sent> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof GateClientError)) throw error;
    return { outcome: 'retry', status: null, retry_after_ms: null, error: `${error.kind}: ${error.message}` };
  }
}

/** The journaled outcome of one send: the answer's class, its status, the next attempt's delay, what the door said. */
function outcomeData<Extra extends object>(config: GateConfig, s: SubmissionRow, sent: Sent, extra: Extra) {
  return {
    artifact_id: s.artifact_id,
    space: s.space,
    ...extra,
    outcome: sent.outcome,
    status: sent.status,
    attempt: s.attempts + 1,
    ...(sent.outcome === 'retry' ? { retry_after_ms: sent.retry_after_ms ?? config.org.retry_after_ms } : {}),
    ...(sent.outcome === 'accepted' && typeof sent.answer['state'] === 'string' ? { org_state: sent.answer['state'] } : {}),
    ...('error' in sent ? { error: sent.error.slice(0, 500) } : {}),
  };
}

interface SendingHouse {
  readonly store: Store;
  readonly access: AccessPart;
  readonly review: ReviewPart;
  readonly deployment: Deployment;
  readonly config: GateConfig;
  /** Where a refusal for two chains is said loudly; the drain passes it. */
  readonly log?: Log;
}

/** Sends one queued submission (built from the row as it stands now) and journals `submission-outcome`. */
export async function sendSubmission(house: SendingHouse, door: OrgDoorClient, s: SubmissionRow, by: string): Promise<SendOutcome> {
  const row = house.store.artifacts.byId(s.artifact_id)!;
  const body = buildSubmission(house, row);
  const sent = await put(() => door.submit(s.artifact_id, body));
  // 409: the organization saw two chains under this deployment (a copy of this home runs beside it, or ran).
  if (sent.outcome === 'refused' && sent.status === 409) house.log?.error(`the organization refuses this deployment: ${sent.error}`, undefined, { artifact_id: s.artifact_id });
  await house.store.writer.write(() => house.store.journal.append('submission-outcome', by, outcomeData(house.config, s, sent, { submission_id: body.id })));
  return sent.outcome;
}

/**
 * Sends the signed retraction of an erased row that was submitted and journals
 * `retraction-outcome` (accepted: the organization erased its copy, or never held one).
 */
export async function sendRetraction(house: SendingHouse, door: OrgDoorClient, s: SubmissionRow, by: string): Promise<SendOutcome> {
  const row = house.store.artifacts.byId(s.artifact_id)!;
  const body = buildRetraction(house, row);
  const sent = await put(() => door.retract(s.artifact_id, body));
  await house.store.writer.write(() => house.store.journal.append('retraction-outcome', by, outcomeData(house.config, s, sent, { retraction_id: body.id })));
  return sent.outcome;
}

/**
 * Right after an erasure: when the row was submitted, its retraction is sent now, once, so
 * the organization's copy goes with the member's (an unreachable organization, or a drain
 * sending at this moment, leaves it to the next gv.submit_drain). Answers the submission's
 * state afterwards (`retracted`, `retract`: queued, `retract_refused`), or null when the row
 * was never submitted.
 */
export async function retractAfterErasure(house: SendingHouse, artifactId: string, by: string): Promise<{ state: SubmissionRow['state'] } | null> {
  const s = house.store.submissions.of(artifactId);
  if (s === undefined) return null;
  if (s.state === 'retract' && house.config.org.url !== '') {
    await asTheDrain(house.store, async () => {
      const door = orgDoorClient(house);
      try {
        await sendRetraction(house, door, s, by);
      } finally {
        await door.close();
      }
    }).catch(() => undefined);
  }
  return { state: house.store.submissions.of(artifactId)!.state };
}
