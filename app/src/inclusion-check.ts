import { verifyCheckpoint, verifyInclusion, type InclusionProofJson, type VerifiedCheckpoint } from '@gate/client/proofs';
import type { WhyEvent } from './event-check.js';

// Whether each of a row's events is in the journal the deployment signed, checked in this
// page with the client library (RFC 9162): gv.why's checkpoint must carry the signature of
// the deployment /identity names, once, then each event's audit path must lead from its id,
// as leaf seq - 1, to that checkpoint's root. The gate's word is taken for nothing here.

export type InclusionCheck =
  /** Its id is leaf seq - 1 of the tree of `size` events the verified checkpoint signs. */
  | { state: 'included'; size: number }
  | { state: 'failed'; why: string };

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Each event's inclusion by event id; an unsigned or absent checkpoint fails every event. */
export async function checkInclusions(deploymentId: string, checkpoint: string | undefined, events: readonly WhyEvent[], signer: string = deploymentId): Promise<Map<string, InclusionCheck>> {
  let signed: VerifiedCheckpoint;
  try {
    if (checkpoint === undefined) throw new Error('the gate served no checkpoint');
    signed = await verifyCheckpoint(deploymentId, checkpoint, signer);
  } catch (e) {
    const failed: InclusionCheck = { state: 'failed', why: `the signed checkpoint does not hold (${reason(e)})` };
    return new Map(events.map((ev) => [ev.event_id, failed]));
  }
  const checks = await Promise.all(
    events.map(async (ev): Promise<[string, InclusionCheck]> => {
      try {
        await verifyInclusion(signed, ev.event_id, ev['inclusion'] as InclusionProofJson, ev.seq);
        return [ev.event_id, { state: 'included', size: signed.size }];
      } catch (e) {
        return [ev.event_id, { state: 'failed', why: reason(e) }];
      }
    }),
  );
  return new Map(checks);
}
