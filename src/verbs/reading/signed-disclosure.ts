import type { Caller } from '../../access/caller.js';
import type { JournalEvent } from '../../forms/event.js';
import { maskedName } from '../../attachments/masked-name.js';
import { isClosedReason } from '../../domain/rejection-reasons.js';

/**
 * What a caller already reads about one row, which decides whether an event's signed bytes
 * may be handed to them. Ed25519 signs the whole canonical event, so a signature can only be
 * checked against every byte of it: the bytes are served whole or not at all.
 */
export interface Reader {
  caller: Caller;
  /** From reviewer up (every row, the masked body, scores and rationales of gv.grade). */
  reviewer: boolean;
  /** The row's writer (its envelope as written, the names it gave its attachments). */
  writer: boolean;
  /** The row's content hash: its masked body's hash when the scan masked nothing. */
  contentHash: string;
  /** rule U for another row an event names (a parent, the row it lost to). */
  canReadId(id: string): boolean;
}

type Rule = (value: unknown, reader: Reader, event: JournalEvent) => boolean;

const anyReader: Rule = () => true;
const reviewers: Rule = (_, r) => r.reviewer;
/** Kept in the journal only: a person's words (a reason, a note) are served by no verb, not even back to their author. */
const journalOnly: Rule = () => false;
const readableIds: Rule = (v, r) => (Array.isArray(v) ? v : [v]).every((id) => typeof id === 'string' && r.canReadId(id));

/** An attachment entry as the writer gave it; others are served its name masked, so only a name the mask leaves unchanged. */
const attachmentsShown: Rule = (v, r) =>
  r.writer ||
  (Array.isArray(v) &&
    v.every((a: Record<string, unknown>) => Object.keys(a).every((k) => k === 'sha256' || (k === 'name' && typeof a['name'] === 'string' && maskedName(a['name']) === a['name']))));

/**
 * Each field an event about a row may hold, and who reads its value already through some
 * verb (gv.node with body, gv.approval, gv.comments, gv.review, gv.review_runs, gv.grade).
 * A field not listed here keeps the bytes back: a new field is withheld until it is named.
 */
const FIELDS: Record<string, Rule> = {
  // The row's envelope and position: gv.node (with body), gv.status, gv.audit to whoever reads the row.
  artifact_id: anyReader,
  space: anyReader,
  workarea: anyReader,
  leaves: anyReader,
  enters: anyReader,
  trust_class: anyReader,
  content_type: anyReader,
  kind: anyReader,
  provisional: anyReader,
  content_hash: anyReader,
  size_bytes: anyReader,
  source_uri: anyReader,
  writer_kind: anyReader,
  producer: anyReader,
  addressed_to: anyReader,
  encoding: anyReader,
  envelope: anyReader,
  bundle_path: anyReader,
  map_path: anyReader,
  findings_count: anyReader,
  scanner: anyReader,
  // Decisions and their closed words and counts: gv.approval, gv.events.
  decision: anyReader,
  signer_class: anyReader,
  category: anyReader,
  stance: anyReader,
  model_label: anyReader,
  rubric: anyReader,
  backend: anyReader,
  run_id: anyReader,
  from_record: anyReader,
  assessment: anyReader,
  k_have: anyReader,
  k_required: anyReader,
  quorum_profile: anyReader,
  reopens: anyReader,
  group_id: anyReader,
  authority_class: anyReader,
  org_deployment_id: anyReader,
  org_seq: anyReader,
  outcome: anyReader,
  submission_id: anyReader,
  audience: anyReader,
  lift: anyReader,
  lowered: anyReader,
  pinned: anyReader,
  weight: anyReader,
  author_class: anyReader,
  comment: anyReader,
  reply_to: anyReader,
  // Other rows an event names: each must be one the caller may read (gv.audit withholds the rest).
  derives_from: readableIds,
  in_favour_of: readableIds,
  parent: readableIds,
  child: readableIds,
  unpins: readableIds,
  bundle: readableIds,
  map: readableIds,
  attachments: attachmentsShown,
  // The masked body's hash differs from the content's only when the scan masked something; that form is served to reviewers.
  masked_hash: (v, r) => v === r.contentHash || r.reviewer,
  // A scan's findings carry the matched text, which is served to nobody. A comment (its body and
  // findings) leaves the gate through gv.comments alone, never inside another answer.
  findings: (v, _, e) => e.type !== 'comment' && Array.isArray(v) && v.length === 0,
  // What the scanner found in a comment's body: served with the comment by gv.comments alone.
  scan: journalOnly,
  // Who was asked to sign: gv.review's who_can_sign to reviewers, gv.ask_to_sign's answer to the asker.
  to: (_, r, e) => r.reviewer || e.by === r.caller.identity,
  reason: isClosedReason,
  words: journalOnly,
  note: journalOnly,
  operator_key: journalOnly,
  // A model reviewer's assessment: gv.grade answers it (score, rationale, evidence) to reviewers.
  score: reviewers,
  rationale: reviewers,
  evidence: reviewers,
  counterevidence: reviewers,
  cost_tokens: reviewers,
  ms: reviewers,
  state: reviewers,
  detail: reviewers,
  failure: reviewers,
};

/**
 * The fields of an event whose values this reader is not served, sorted; empty when the
 * whole signed event may be handed to them (then they can check its signature themselves).
 */
export function withheldFields(reader: Reader, event: JournalEvent): string[] {
  return Object.entries(event.data)
    .filter(([field, value]) => {
      const rule = FIELDS[field];
      return rule === undefined || !rule(value, reader, event);
    })
    .map(([field]) => field)
    .sort();
}
