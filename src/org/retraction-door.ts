import { jsonBodyFaultReason, jsonObjectBody } from '../http-rpc/json-object-body.js';
import { inTransaction } from './org-database.js';
import type { OrgContext } from './org-context.js';
import { checkRetraction } from './retraction-check.js';
import type { DoorAnswer } from './submission-door.js';

/** A retraction is a few hundred bytes; anything much larger is not one. */
export const RETRACTION_MAX_BYTES = 16 * 1024;

/** A stored submission body with its content's bytes taken out: what the organization keeps of an erased row. */
export function withoutBytes(body: string): string {
  const stored = JSON.parse(body) as { submission: { content?: Record<string, unknown> } };
  stored.submission.content = { ...stored.submission.content, bytes: null };
  return JSON.stringify(stored);
}

/**
 * PUT /retractions/{artifact_id} for a member's submit key: the member erased the row's
 * content and sends its signed retraction/1 (docs/organization.md "Erasure at a member").
 * The organization's copy loses its bytes at once: the stored body keeps the envelope, the
 * approval, the decisions and the signed events, with `content.bytes` null, and the
 * retraction is kept verbatim beside it. An undecided submission leaves the inbox for good
 * (state `retracted`); a decided one keeps its decision, and its outcome line (which never
 * held content) stays where its member reads it, so the log's chain is untouched.
 * 200 `{artifact_id, state, erased: true, changed}`; 404 when this member never submitted
 * the row (the member's retraction is then done: nothing of it is here); a repeat changes
 * nothing. After the commit the table is vacuumed, so the dead row version that still held
 * the bytes is removed from the table's pages now rather than whenever autovacuum comes by.
 * The body is small (16 KiB at most) and is read on the doors' thread as every door reads
 * JSON (src/http-rpc/json-object-body.ts).
 */
export async function putRetraction(ctx: OrgContext, member: string, pathId: string, bytes: Buffer): Promise<DoorAnswer> {
  const read = jsonObjectBody(bytes);
  if ('fault' in read) return { status: 400, body: { error: read.fault === 'not_object' ? 'the body is {retraction, id, sig}' : jsonBodyFaultReason(read) } };
  const checked = checkRetraction(pathId, read.value, member);
  if ('status' in checked) return { status: checked.status, body: { error: checked.error } };
  const { retraction } = checked;
  const answer = await inTransaction(ctx.pool, async (client): Promise<DoorAnswer & { erased?: true }> => {
    const row = (
      await client.query<{ state: string; body: string; erased: boolean }>(
        'SELECT state, body, erased_at IS NOT NULL AS erased FROM submissions WHERE deployment_id = $1 AND artifact_id = $2 FOR UPDATE',
        [member, retraction.artifact_id],
      )
    ).rows[0];
    if (row === undefined) return { status: 404, body: { error: 'this member never submitted that row here: nothing of it is held' } };
    if (row.erased) return { status: 200, body: { artifact_id: retraction.artifact_id, state: row.state, erased: true, changed: false } };
    const hash = (JSON.parse(row.body) as { submission?: { envelope?: { content_hash?: unknown } } }).submission?.envelope?.content_hash;
    if (hash !== retraction.content_hash) return { status: 422, body: { error: 'content mismatch: the retraction names another content hash than the submission held here' } };
    const state = row.state === 'leased' || row.state === 'held' ? 'retracted' : row.state;
    await client.query(
      `UPDATE submissions SET body = $3, state = $4, erased_at = now(), retraction = $5,
              held_by = CASE WHEN $4 = 'retracted' THEN NULL ELSE held_by END,
              held_until = CASE WHEN $4 = 'retracted' THEN NULL ELSE held_until END,
              waiting_decisions = NULL,
              decided_at = CASE WHEN $4 = 'retracted' THEN now() ELSE decided_at END
        WHERE deployment_id = $1 AND artifact_id = $2`,
      [member, retraction.artifact_id, withoutBytes(row.body), state, JSON.stringify({ retraction, id: checked.id, sig: checked.sig })],
    );
    return { status: 200, body: { artifact_id: retraction.artifact_id, state, erased: true, changed: true }, erased: true };
  });
  if (answer.erased) {
    ctx.log.info('submission erased at its member', { member_deployment_id: member, artifact_id: retraction.artifact_id, state: String(answer.body!['state']) });
    // Outside the transaction (VACUUM cannot run in one); a failure leaves the work to autovacuum.
    await ctx.pool.query('VACUUM submissions').catch((error: unknown) => ctx.log.warn('vacuum after an erasure did not run; autovacuum will', { error: error instanceof Error ? error.message : String(error) }));
  }
  const { erased: _erased, ...door } = answer;
  return door;
}
