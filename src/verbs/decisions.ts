import { z } from 'zod';
import { defineVerb, type VerbContext } from './define-verb.js';
import { artifactIdParam } from './param-types.js';
import { rowEventData } from './row-event.js';
import { lifecycle } from '../gate-error.js';
import { PROMOTABLE_STATES, QUARANTINE_STATES, type ArtifactState } from '../domain/states.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';

/**
 * Runs a reviewer's decision on one row inside the journal transaction: the row is read,
 * checked and moved in the same savepoint, so two decisions racing cannot both apply.
 */
function decide(
  ctx: VerbContext,
  id: string,
  verb: string,
  allowed: (row: ArtifactRow) => string | null,
  event: (row: ArtifactRow) => { type: string; enters: ArtifactState; own: Record<string, unknown> },
) {
  const { gate, caller } = ctx;
  return gate.writer.write(() => {
    const row = gate.readableArtifact(caller, id);
    if (row.writer_identity === caller.identity) {
      throw lifecycle(`${verb}: a reviewer never decides a row they wrote`, 'self_authored');
    }
    const refusal = allowed(row);
    if (refusal !== null) throw lifecycle(refusal, 'wrong_state');
    const e = event(row);
    const appended = gate.journal.append(e.type, caller.identity, rowEventData(row, e.enters, e.own));
    return { row, event: appended, enters: e.enters };
  });
}

export const promoteVerb = defineVerb({
  name: 'gv.promote',
  role: 'reviewer',
  summary: 'Promote a reviewed row: it becomes ACTIVE and is served to readers.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  async handler(ctx, p) {
    const done = await decide(
      ctx,
      p.artifact_id,
      'gv.promote',
      (row) =>
        PROMOTABLE_STATES.has(row.state as ArtifactState)
          ? null
          : row.state === 'L1B_FLAGGED'
            ? 'gv.promote: a flagged row needs a disposition before it can be promoted'
            : `gv.promote: a row in ${row.state} cannot be promoted`,
      // A solo gate's promotions stay provisional until an org gate countersigns (spec 1).
      () => ({ type: 'promote', enters: 'ACTIVE', own: { provisional: true } }),
    );
    return { artifact_id: done.row.artifact_id, state: done.enters, provisional: true, event_id: done.event.event_id };
  },
});

export const rejectVerb = defineVerb({
  name: 'gv.reject',
  role: 'reviewer',
  summary: 'Reject a row in quarantine.',
  params: z.strictObject({
    artifact_id: artifactIdParam,
    reason: z.string().min(1).max(500).optional(),
    in_favour_of: artifactIdParam.optional(),
  }),
  async handler(ctx, p) {
    if (p.in_favour_of !== undefined) {
      ctx.gate.readableArtifact(ctx.caller, p.in_favour_of);
    }
    const done = await decide(
      ctx,
      p.artifact_id,
      'gv.reject',
      (row) => (QUARANTINE_STATES.has(row.state as ArtifactState) ? null : `gv.reject: a row in ${row.state} is not in quarantine`),
      () => ({
        type: 'reject',
        enters: 'REJECTED',
        own: { ...(p.reason ? { reason: p.reason } : {}), ...(p.in_favour_of ? { in_favour_of: p.in_favour_of } : {}) },
      }),
    );
    return { artifact_id: done.row.artifact_id, state: done.enters, event_id: done.event.event_id };
  },
});

export const demoteVerb = defineVerb({
  name: 'gv.demote',
  role: 'reviewer',
  summary: 'Withdraw an admitted row from readers; its content is kept.',
  params: z.strictObject({ artifact_id: artifactIdParam, reason: z.string().min(1).max(500).optional() }),
  async handler(ctx, p) {
    const done = await decide(
      ctx,
      p.artifact_id,
      'gv.demote',
      (row) => (row.state === 'ACTIVE' ? null : `gv.demote: only an ACTIVE row can be demoted, not one in ${row.state}`),
      () => ({ type: 'demote', enters: 'DEMOTED', own: p.reason ? { reason: p.reason } : {} }),
    );
    return { artifact_id: done.row.artifact_id, state: done.enters, event_id: done.event.event_id };
  },
});
