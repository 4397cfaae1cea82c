import type { OrgStaffCaller } from './org-bearer.js';
import { peopleStillNeeded, type WaitingDecision } from './org-decision.js';
import { standingOf, type Standing } from './person-match.js';
import type { Retraction } from '../forms/retraction-contract.js';

/** The inbox row's columns every reading verb selects (`s` the submissions table). */
export const ITEM_COLUMNS = `s.deployment_id, s.artifact_id, s.submission_id, s.trust_class, s.body, s.state, s.attempts, s.received_at,
  s.held_by, s.held_until, s.held_until > now() AS live, s.waiting_decisions, s.erased_at, s.retraction`;

export interface ItemRow {
  deployment_id: string;
  artifact_id: string;
  submission_id: string;
  trust_class: string;
  body: string;
  state: string;
  attempts: number;
  received_at: Date;
  held_by: string | null;
  held_until: Date | null;
  live: boolean | null;
  waiting_decisions: string | null;
  erased_at: Date | null;
  retraction: string | null;
}

/** A submission as its member signed it (the org reads only what it shows and checks). */
export type SubmissionBody = Record<string, unknown> & { content?: Record<string, unknown> };

export interface StoredBody {
  submission: SubmissionBody;
  id: string;
  sig: string;
}

export const storedBody = (row: Pick<ItemRow, 'body'>): StoredBody => JSON.parse(row.body) as StoredBody;

/**
 * Where the content's bytes are in an answer: `included` (raw, base64, for who checks the
 * member's signature with them), `withheld` (the submission without them: the person's copy
 * is what is read), `erased` (the member erased the row; the organization holds no bytes).
 */
export type ContentShown = 'included' | 'withheld' | 'erased';

/**
 * One submission as the reading verbs answer it (gv.org_inbox, gv.org_take,
 * gv.org_submission): who holds it and until when (a hold that ran out holds nothing), the
 * decisions waiting for more people (each with how many more), how the caller's own decision would count
 * (person-match.ts, with the sentence said before anyone decides), and the submission,
 * without the content's bytes unless `raw`.
 */
export function inboxItem(row: ItemRow, caller: OrgStaffCaller, raw: boolean) {
  const { submission, id, sig } = storedBody(row);
  const live = row.state === 'held' && row.live === true;
  const waiting = row.waiting_decisions === null ? [] : (JSON.parse(row.waiting_decisions) as WaitingDecision[]).filter((w) => w.submission_id === row.submission_id);
  const content: ContentShown = row.erased_at !== null ? 'erased' : raw ? 'included' : 'withheld';
  const standing: Standing = standingOf(caller, submission);
  return {
    member_deployment_id: row.deployment_id,
    artifact_id: row.artifact_id,
    submission_id: row.submission_id,
    trust_class: row.trust_class,
    state: row.state,
    attempts: row.attempts,
    received_at: row.received_at.getTime(),
    held_by: live ? row.held_by : null,
    held_until: live ? (row.held_until?.getTime() ?? null) : null,
    waiting: waiting.map((w) => ({
      decision: w.decision,
      by: w.by,
      ts: w.ts,
      still_needed: peopleStillNeeded(waiting.filter((o) => o.decision === w.decision)),
      ...(w.category === undefined ? {} : { category: w.category }),
      ...(w.reason === undefined ? {} : { reason: w.reason }),
    })),
    standing,
    content,
    submission: content === 'included' ? submission : { ...submission, content: { ...submission.content, bytes: null } },
    id,
    sig,
    erased: row.erased_at === null ? null : { at: row.erased_at.getTime(), ...(JSON.parse(row.retraction ?? 'null') as { retraction: Retraction; id: string; sig: string }) },
  };
}

export type InboxItem = ReturnType<typeof inboxItem>;
