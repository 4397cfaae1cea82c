import { z } from 'zod';
import type { PoolClient } from 'pg';
import { ErrorCode, GateError, invalidParams, lifecycle } from '../gate-error.js';
import { defineOrgVerb } from './define-org-verb.js';
import type { OrgStaffCaller } from './org-bearer.js';
import type { OrgContext } from './org-context.js';
import { inTransaction } from './org-database.js';
import { DecisionRefused, REFUSAL_CATEGORIES, type WaitingDecision } from './org-decision.js';
import { logDecision, logDecisionRefused } from './decision-log-line.js';
import { inboxItem, ITEM_COLUMNS, storedBody, type ItemRow } from './inbox-item.js';
import { standingOf } from './person-match.js';
import type { PersonsCopy } from './persons-copies.js';
import type { AuthorityClass } from '../forms/outcome-line.js';

export const artifactId = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'an artifact id is sha256:<64 hex>');
export const memberDeploymentId = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "a member gate's deployment id is 43 base64url characters");

/**
 * The signer class an org decision is journaled with, by the gate's rule: a signed-in person
 * decides as `human`; a key's holder is a program (docs/protocol.md#operator-proofs: a sign without a
 * person behind it never counts as a human's), so a review key decides as `agent`.
 */
const authorityClassOf = (caller: OrgStaffCaller): AuthorityClass => (caller.kind === 'person' ? 'human' : 'agent');

/** Persons' copies of the items' contents (decoded, scanned and masked in a worker), made after any transaction: a scan never holds a row lock. */
async function withCopies<T extends { artifact_id: string }>(ctx: OrgContext, items: T[], rows: ItemRow[], decoded: boolean): Promise<Array<T & { copy?: PersonsCopy | null }>> {
  if (!decoded) return items;
  const copies = await ctx.copies.copies(rows.map((r) => storedBody(r).submission));
  return items.map((item, n) => ({ ...item, copy: copies[n] ?? null }));
}

/**
 * gv.org_inbox: the undecided submissions, oldest first, read without taking any: each with
 * who holds it and until when (null when nobody does), the decisions waiting for more people,
 * and how the caller's own decision on it would count (person-match.ts). The
 * submission comes without its content's bytes: with `decoded`, each item carries `copy`,
 * its content as a person reads it at the gate (decoded, secrets and personal data masked,
 * every finding placed), or null when it is not text. Taking one is gv.org_take.
 */
export const orgInboxVerb = defineOrgVerb({
  name: 'gv.org_inbox',
  role: 'reviewer',
  summary: "List the undecided submissions, oldest first, without taking any: who holds each and until when, how your decision would count; decoded: a person's copy of each content.",
  params: z.strictObject({ limit: z.number().int().min(1).max(100).default(10), decoded: z.boolean().default(false) }),
  async handler(ctx, caller, params) {
    const rows = (
      await ctx.pool.query<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM submissions s WHERE s.state IN ('leased', 'held') ORDER BY s.received_at, s.deployment_id, s.artifact_id LIMIT $1`, [params.limit])
    ).rows;
    const items = await withCopies(ctx, rows.map((r) => inboxItem(r, caller, false)), rows, params.decoded);
    return { items, you: caller.identity };
  },
});

const pair = z.strictObject({ member_deployment_id: memberDeploymentId.optional(), artifact_id: artifactId.optional(), decoded: z.boolean().default(false) });

/** How many rows a person's gv.org_take looks at a time for one they may decide (a key takes the first). */
const TAKE_BATCH = 10;

/**
 * Candidates for the caller's next take, oldest first, locked (SKIP LOCKED: rows another
 * transaction is taking are passed by): first the caller's own live holds (by the held_by
 * index), then free rows in received order (by the open rows' index, so a drain reads the few
 * rows it takes, not the whole inbox), never one where the caller's decision waits for others.
 */
async function candidates(client: PoolClient, caller: OrgStaffCaller, passed: string[], limit: number): Promise<ItemRow[]> {
  const notWaiting = `NOT coalesce(s.waiting_decisions::jsonb @> jsonb_build_array(jsonb_build_object('by', $1::text)), false)
    AND NOT (s.deployment_id || ' ' || s.artifact_id = ANY($2::text[]))`;
  const own = await client.query<ItemRow>({
    name: 'org-take-own',
    text: `SELECT ${ITEM_COLUMNS} FROM submissions s WHERE s.state = 'held' AND s.held_by = $1 AND s.held_until >= now() AND ${notWaiting}
            ORDER BY s.received_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
    values: [caller.identity, passed, limit],
  });
  if (own.rows.length >= limit) return own.rows;
  const free = await client.query<ItemRow>({
    name: 'org-take-free',
    text: `SELECT ${ITEM_COLUMNS} FROM submissions s WHERE s.state IN ('leased', 'held') AND (s.state = 'leased' OR s.held_until < now()) AND ${notWaiting}
            ORDER BY s.received_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
    values: [caller.identity, passed, limit - own.rows.length],
  });
  return [...own.rows, ...free.rows];
}

/** The next submission the caller may take: their own live hold, else the oldest free one; for a person, one they may decide. */
async function takeNext(client: PoolClient, caller: OrgStaffCaller): Promise<ItemRow | null> {
  if (caller.kind !== 'person') return (await candidates(client, caller, [], 1))[0] ?? null;
  const passed: string[] = [];
  for (;;) {
    const rows = await candidates(client, caller, passed, TAKE_BATCH);
    const mine = rows.find((r) => standingOf(caller, storedBody(r).submission).counts !== 'not');
    if (mine !== undefined) return mine;
    if (rows.length < TAKE_BATCH) return null;
    passed.push(...rows.map((r) => `${r.deployment_id} ${r.artifact_id}`));
  }
}

/** The named submission, if the caller may take it: else refused with why (decided, erased, held by another, signed at the member, their decision waiting for others). */
async function takeNamed(client: PoolClient, caller: OrgStaffCaller, member: string, artifact: string): Promise<ItemRow> {
  const row = (await client.query<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM submissions s WHERE s.deployment_id = $1 AND s.artifact_id = $2 FOR UPDATE`, [member, artifact])).rows[0];
  if (row === undefined) throw invalidParams(`unknown submission: ${artifact.slice(0, 16)}`, { reason: 'unknown_submission' });
  if (row.state === 'countersigned' || row.state === 'refused') throw lifecycle(`gv.org_take: decided already (${row.state})`, 'decided');
  if (row.state === 'retracted') throw lifecycle("gv.org_take: the member erased this row's content: there is nothing to decide", 'retracted');
  if (row.state === 'held' && row.live === true && row.held_by !== caller.identity) {
    throw new GateError(ErrorCode.lifecycle, `gv.org_take: ${row.held_by} holds this submission until ${row.held_until!.toISOString()}`, {
      reason: 'held_by_other',
      held_by: row.held_by,
      held_until: row.held_until!.getTime(),
    });
  }
  const standing = standingOf(caller, storedBody(row).submission);
  if (standing.counts === 'not') throw lifecycle(`gv.org_take: ${standing.says}`, 'signed_at_member');
  const waiting = row.waiting_decisions === null ? [] : (JSON.parse(row.waiting_decisions) as WaitingDecision[]);
  if (waiting.some((w) => w.by === caller.identity && w.submission_id === row.submission_id)) {
    throw lifecycle("gv.org_take: your decision on it waits for more people's; another reviewer takes it", 'waits_for_others');
  }
  return row;
}

/**
 * gv.org_take: takes one submission for the caller, held for [org].review_hold_s: the one
 * named (`member_deployment_id` and `artifact_id`), or, with neither, the next one the caller
 * may decide (their own live hold first, else the oldest free one; FOR UPDATE SKIP LOCKED, so
 * reviewers draining together, on any org processes, never take the same one). Answers the
 * item as gv.org_inbox lists it (held by the caller now), or `item: null` when nothing is
 * free. Taking again what one holds renews the hold. Every other reviewer's gv.org_inbox shows
 * who holds it and until when.
 */
export const orgTakeVerb = defineOrgVerb({
  name: 'gv.org_take',
  role: 'reviewer',
  summary: "Take one submission for review, held for you for [org].review_hold_s: the one named, else the next one you may decide (review keys drain the inbox with it).",
  params: pair,
  async handler(ctx, caller, p) {
    if ((p.member_deployment_id === undefined) !== (p.artifact_id === undefined)) {
      throw invalidParams('name a submission with both member_deployment_id and artifact_id, or neither to take the next one', { field: p.artifact_id === undefined ? 'artifact_id' : 'member_deployment_id' });
    }
    const taken = await inTransaction(ctx.pool, async (client) => {
      const row = p.artifact_id === undefined ? await takeNext(client, caller) : await takeNamed(client, caller, p.member_deployment_id!, p.artifact_id);
      if (row === null) return null;
      const held = await client.query<{ held_until: Date }>(
        `UPDATE submissions SET state = 'held', held_by = $3, held_until = now() + make_interval(secs => $4)
          WHERE deployment_id = $1 AND artifact_id = $2 RETURNING held_until`,
        [row.deployment_id, row.artifact_id, caller.identity, ctx.settings.review_hold_s],
      );
      return { ...row, state: 'held', held_by: caller.identity, held_until: held.rows[0]!.held_until, live: true };
    });
    if (taken === null) return { item: null };
    ctx.log.info('submission taken', { artifact_id: taken.artifact_id, member_deployment_id: taken.deployment_id, by: caller.identity, held_until: taken.held_until.getTime() });
    const [item] = await withCopies(ctx, [inboxItem(taken, caller, false)], [taken], p.decoded);
    return { item: item! };
  },
});

/**
 * gv.org_review: countersign or refuse one submission, as gv.review decides a local row
 * and gv.sign signs it: one decision, journaled in the org's log with its signer class
 * (authorityClassOf) and, for a refusal, a category (one of the five a submitter is told)
 * and a reason, both kept in the org's log and never in the outcome. A submission another
 * reviewer holds is refused (-32010 held_by_other); deciding a decided row changes nothing.
 * A person's decision counts by who they are to the row (person-match.ts): refused when they
 * acted on it at the member (-32010 signed_at_member), recorded to wait for others when the
 * organization cannot tell them apart from the member's people (org-decision.ts).
 * Decisions arriving together share one transaction (DecisionBatch).
 */
export const orgReviewVerb = defineOrgVerb({
  name: 'gv.org_review',
  role: 'reviewer',
  summary: "Countersign or refuse one member gate's submission; a refusal names a category (its reason stays in the org's log).",
  params: z.strictObject({
    member_deployment_id: memberDeploymentId,
    artifact_id: artifactId,
    decision: z.enum(['countersign', 'refuse']),
    category: z.enum(REFUSAL_CATEGORIES).optional(),
    reason: z.string().min(1).max(4000).optional(),
  }),
  async handler(ctx, caller, p) {
    if (p.decision === 'refuse' && p.category === undefined) throw invalidParams('missing field: category (a refusal names one)', { field: 'category' });
    if (p.decision === 'countersign' && p.category !== undefined) throw invalidParams('field category: a category belongs to a refusal', { field: 'category' });
    // A person's decision counts by who they are to this row (person-match.ts), read from the submission it decides.
    let read: { submission_id: string; unmatched?: string[] } | null = null;
    if (caller.kind === 'person') {
      const row = (await ctx.pool.query<{ submission_id: string; body: string }>('SELECT submission_id, body FROM submissions WHERE deployment_id = $1 AND artifact_id = $2', [p.member_deployment_id, p.artifact_id])).rows[0];
      if (row === undefined) throw invalidParams(`unknown submission: ${p.artifact_id.slice(0, 16)}`, { reason: 'unknown_submission' });
      const standing = standingOf(caller, storedBody(row).submission);
      if (standing.counts === 'not') {
        logDecisionRefused(ctx.log, p.artifact_id, caller.identity, 'signed_at_member');
        throw lifecycle(`gv.org_review: ${standing.says}`, 'signed_at_member');
      }
      read = { submission_id: row.submission_id, ...(standing.counts === 'with_others' ? { unmatched: standing.unmatched } : {}) };
    }
    const decision = {
      deployment_id: p.member_deployment_id,
      artifact_id: p.artifact_id,
      decision: p.decision,
      authority_class: authorityClassOf(caller),
      by: caller.identity,
      reviewer: caller.identity,
      ...(p.category === undefined ? {} : { category: p.category }),
      ...(p.reason === undefined ? {} : { reason: p.reason }),
      ...read,
    };
    const decided = await ctx.decisions.take(decision);
    if (!(decided instanceof DecisionRefused)) {
      logDecision(ctx.log, decided, decision);
      return decided;
    }
    logDecisionRefused(ctx.log, p.artifact_id, caller.identity, decided.reason);
    if (decided.reason === 'unknown_submission') throw invalidParams(`unknown submission: ${p.artifact_id.slice(0, 16)}`, { reason: 'unknown_submission' });
    throw lifecycle(`gv.org_review: ${decided.message}`, decided.reason);
  },
});
