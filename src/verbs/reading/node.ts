import { z } from 'zod';
import { markedWith, type FindingMark } from '../../projections/finding-marks.js';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { reasonOf } from '../../projections/row-metadata.js';
import { invalidParams } from '../../gate-error.js';
import { isPromoted } from '../../domain/states.js';
import { canonicalJson, sha256Hex } from '../../forms/canonical-json.js';
import { approvalOf } from '../../review/approval-answer.js';
import { commentEntryAnswer, commentsFor } from '../review/comments.js';
import { relationAnswer, visibleRelations } from './relations.js';
import { tipOf } from '../curation/tip.js';
import { pendingSupersedes } from '../curation/replacement-group-view.js';
import { membersOf } from './node-members.js';
import { refusalOf } from './node-refusal.js';
import type { Caller } from '../../access/caller.js';
import { atLeast } from '../../domain/roles.js';
import type { ArtifactRow, PlacedFinding } from '../../projections/artifact-reads.js';
import { readableBodyHash } from '../../review/read-before-signing.js';
import { personsCopy } from '../../review/persons-copy.js';
import { evidenceRequests, type EvidenceRequest } from '../../review/evidence-requests.js';
import type { House } from '../house.js';
import { evidenceRequestAnswer, placedFindingAnswer, scannerFindingsAnswer, waitsForAnswer } from '../answer-types.js';
import { approvalAnswer } from '../review/approval.js';

function nodeTip(house: Pick<House, 'store' | 'access'>, caller: Caller, id: string) {
  const tip = tipOf(house, caller, id);
  return { artifact_id: tip.head, pinned: tip.pin !== null, chain_length: tip.chain.length };
}

export const PREVIEW_CHARS = 280;

/** Present on an erased row only: which event erased it, and when (its reason stays in the journal). */
function erasureOf(house: Pick<House, 'store'>, seq: number): { event_id: string; ts: number } {
  return house.store.journalReads.stampAt(seq);
}

/** A reviewer's page of a masked body; `masked_body` null when the row has none to serve. */
export interface MaskedBodyPage {
  masked_body: string | null;
  masked_chars: number;
  /**
   * Every finding standing on the row, on each page: a person about to sign sees what the
   * scanner found and where in the body, whichever page they are on.
   */
  findings: PlacedFinding[];
  /**
   * Which masking the page has: `program` (every finding's span hidden: the scanner's masked
   * body, whose hash `masked_hash` is) or `person` (only secrets and personal data hidden, at
   * the same offsets: what a person signing must be able to read; persons-copy.ts).
   */
  masked_for: 'person' | 'program';
  masked_hash?: string;
  masked_offset?: number;
  masked_next_offset?: number | null;
}

/** The body itself, to its writer or on a promoted row. */
export interface WholeBody {
  body: string | null;
  body_exact: boolean;
  content_hash: string;
  size_bytes: number;
  source_uri: string;
  signers: Array<{ identity: string; class: string; decision: string }>;
}

/** gv.node's answer: the node always, then at most one of the masked page and the whole body. */
export type NodeAnswer = {
  artifact_id: string;
  status: { state: string; reason: ReturnType<typeof reasonOf>; provisional: boolean };
  approval: ReturnType<typeof approvalOf>;
  comments: ReturnType<typeof commentsFor>['comments'];
  relations: ReturnType<typeof visibleRelations>;
  tip: ReturnType<typeof nodeTip>;
  members: ReturnType<typeof membersOf>;
  preview: string | null;
  preview_chars: number;
  self_authored: boolean;
  supersedes: ReturnType<typeof pendingSupersedes>;
  /** What the scanner found in the row, kinds and severities (never the matched text): present only when it found something. */
  scanner_findings?: FindingMark[];
  refusal?: NonNullable<ReturnType<typeof refusalOf>>;
  erased?: ReturnType<typeof erasureOf>;
  /** The row's requests for evidence and what answered each (gv.request_evidence, gv.add_evidence): to its writer and reviewers. */
  evidence?: EvidenceRequest[];
  revision?: string;
} & Partial<MaskedBodyPage> &
  Partial<WholeBody>;

/** One page of a reviewer's read of a masked body, in UTF-16 code units (as JavaScript strings index). */
export const BODY_PAGE_CHARS = 65_536;

/**
 * A page of the masked body for a reviewer, journaled (`body-served`) when it extends their
 * in-order read: the read that reaches the end is what lets their promoting or clearing
 * signature count (read-before-signing.ts), as gv.attachment's pages do for attachments.
 */
async function maskedBodyPage(house: Pick<House, 'store'>, caller: Caller, row: ArtifactRow, offset: number): Promise<MaskedBodyPage> {
  const identity = caller.identity;
  const hash = readableBodyHash(house, row);
  const findings = house.store.artifacts.placedFindings(row.artifact_id);
  const maskedFor = caller.kind === 'person' ? 'person' : 'program';
  if (hash === null) return { masked_body: null, masked_chars: 0, findings, masked_for: maskedFor };
  // A person is served their copy (persons-copy.ts): the same offsets, only secrets and personal data masked.
  const text = (maskedFor === 'person' ? personsCopy(house, row) : null) ?? house.store.artifacts.text(hash)!;
  if (offset > 0 && offset >= text.length) throw invalidParams(`offset ${offset} is past the end of the masked body (${text.length} characters)`, { field: 'offset', size: text.length });
  let end = Math.min(text.length, offset + BODY_PAGE_CHARS);
  // Never end a page between the two halves of a surrogate pair.
  if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  const toEnd = end >= text.length;
  await house.store.writer.write(() => {
    const progress = house.store.bodyReads.progress(identity, row.artifact_id, hash);
    if (progress.toEnd || progress.next !== offset) return;
    house.store.journal.append('body-served', identity, {
      artifact_id: row.artifact_id,
      space: row.space,
      ...(row.workarea === null ? {} : { workarea: row.workarea }),
      content_hash: hash,
      offset,
      length: end - offset,
      next_offset: end,
      to_end: toEnd,
    });
  });
  return {
    masked_body: text.slice(offset, end),
    masked_hash: hash,
    masked_offset: offset,
    masked_next_offset: toEnd ? null : end,
    masked_chars: text.length,
    findings,
    masked_for: maskedFor,
  };
}

const nodeAnswer = z.object({
  artifact_id: z.string(),
  status: z.object({ state: z.string(), reason: z.string(), provisional: z.boolean() }),
  approval: approvalAnswer,
  comments: z.array(commentEntryAnswer),
  relations: z.array(relationAnswer),
  tip: z.object({ artifact_id: z.string().nullable(), pinned: z.boolean(), chain_length: z.number() }),
  members: z.array(z.object({
    path: z.string(),
    artifact_id: z.string(),
    content_type: z.string(),
    state: z.string(),
    size_bytes: z.number().int(),
  })),
  preview: z.string().nullable(),
  preview_chars: z.number(),
  self_authored: z.boolean(),
  scanner_findings: scannerFindingsAnswer,
  supersedes: z.object({
    artifact_ids: z.array(z.string()),
    operation: z.enum(['split', 'merge', 'supersede']),
    via: z.string(),
    group_id: z.string(),
  }).nullable(),
  refusal: z.object({
    event_id: z.string(),
    ts: z.number().int(),
    in_favour_of: z.string().optional(),
    type: z.string(),
    category: z.string().nullable(),
    signer_class: z.string().nullable(),
  }).optional(),
  erased: z.object({ event_id: z.string(), ts: z.number().int() }).optional(),
  evidence: z.array(evidenceRequestAnswer).optional(),
  revision: z.string().optional(),
  masked_body: z.string().nullable().optional(),
  masked_chars: z.number().optional(),
  findings: z.array(placedFindingAnswer).optional(),
  masked_for: z.enum(['person', 'program']).optional(),
  masked_hash: z.string().optional(),
  masked_offset: z.number().int().optional(),
  masked_next_offset: z.number().int().nullable().optional(),
  body: z.string().nullable().optional(),
  body_exact: z.boolean().optional(),
  content_hash: z.string().optional(),
  size_bytes: z.number().int().optional(),
  source_uri: z.string().optional(),
  signers: z.array(z.object({ identity: z.string(), class: z.string(), decision: z.string() })).optional(),
});

export const nodeVerb = defineVerb({
  name: 'gv.node',
  role: 'reader',
  summary: 'One row as a node: status, approval, relations, a bounded masked preview; with body, its content.',
  params: z.strictObject({ artifact_id: artifactIdParam, body: z.boolean().optional(), offset: z.number().int().min(0).optional() }),
  answer: nodeAnswer,
  uses: ['store', 'access', 'review'],
  async handler({ caller, store, access, review }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    if (p.body === true && row.erased_seq !== null) {
      throw invalidParams("this row's content was erased: only its existence and metadata are served (gv.node without body)", { reason: 'erased' });
    }
    const own = row.writer_identity === caller.identity;
    // docs/protocol.md#gvnode: the body only for a promoted row or the caller's own; a reviewer of anyone else's
    // row reads the scanner's masked body instead, page by page (reviewerRead).
    const reviewerRead = p.body === true && !own && !isPromoted(row.state);
    if (reviewerRead && !atLeast(caller.role, 'reviewer')) {
      throw invalidParams('the body of a row that is not promoted is served only to its writer and to reviewers (its masked body)');
    }
    if (p.offset !== undefined && !reviewerRead) {
      throw invalidParams("offset pages a reviewer's read of the masked body of a row that is not promoted (with body: true)", { field: 'offset' });
    }
    // The preview is null when erased (docs/protocol.md#gvnode).
    const masked = row.masked_hash === null ? null : store.artifacts.servedBody(row, 'masked');
    const approval = approvalOf({ store, access, review }, caller, row);
    const answer: NodeAnswer = {
      artifact_id: row.artifact_id,
      status: { state: row.state, reason: reasonOf(row), provisional: row.provisional === 1 },
      approval,
      comments: commentsFor({ store }, caller, row, false).comments,
      relations: visibleRelations({ store, access }, caller, row.artifact_id),
      tip: nodeTip({ store, access }, caller, row.artifact_id),
      members: membersOf({ store, access }, caller, row),
      preview: masked === null ? null : masked.slice(0, PREVIEW_CHARS),
      preview_chars: masked === null ? 0 : masked.length,
      self_authored: own,
      supersedes: pendingSupersedes({ store, access }, caller, row.artifact_id),
      // The preview and the body are the row's words: a row promoted over findings says so beside them.
      ...markedWith(store.artifacts.findingMarks(row)),
    };
    const refusal = refusalOf({ store, access }, caller, row);
    if (refusal !== null) answer.refusal = refusal;
    if (row.erased_seq !== null) answer.erased = erasureOf({ store }, row.erased_seq);
    // A reviewer's request is written for the writer: served to them and to reviewers, never to other readers.
    if (own || atLeast(caller.role, 'reviewer')) {
      const evidence = evidenceRequests({ store }, row.artifact_id);
      if (evidence.length > 0) answer.evidence = evidence;
    }
    if (reviewerRead) {
      Object.assign(answer, await maskedBodyPage({ store }, caller, row, p.offset ?? 0));
    } else if (p.body === true) {
      // A body that is not UTF-8 text (an archive, a bundle's image) is not served as if it were.
      const body = store.artifacts.text(row.content_hash);
      Object.assign(answer, {
        body,
        body_exact: body !== null,
        content_hash: row.content_hash,
        size_bytes: row.size_bytes,
        source_uri: row.source_uri,
        signers: approval.signers.map(({ identity, class: c, decision }) => ({ identity, class: c, decision })),
      });
    }
    answer.revision = sha256Hex(canonicalJson(answer));
    return answer;
  },
});
