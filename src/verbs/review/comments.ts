import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam } from '../param-types.js';
import { invalidParams } from '../../gate-error.js';
import type { Caller } from '../../access/caller.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';
import { openObjections, type CommentRow } from '../../projections/comment-reads.js';
import type { ScanFinding } from '../../projections/artifact-reads.js';
import { atLeast } from '../../domain/roles.js';
import { forPeople } from '../../../workers/scan/persons-copy-mask.js';
import { SEVERITY_RANK, type Severity } from '../../../workers/scan/finding.js';
import type { House } from '../house.js';
import { placedFindingAnswer } from '../answer-types.js';

export const COMMENT_KINDS = ['note', 'question', 'objection', 'resolution'] as const;
/** The content type a comment's body is scanned as: text people and agents read, never carry out (executable-stakes.ts). */
const COMMENT_CONTENT_TYPE = 'comment';
const eventIdParam = z.string().regex(/^[0-9a-f]{64}$/, 'an event id is 64 lower-case hex');
/** Plain text: no control characters but line breaks and tabs. */
const plainText = z
  .string()
  .min(1)
  .max(8000)
  .refine((s) => s.trim() !== '', 'the body is empty')
  .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), 'the body is plain text: no control characters');

/**
 * Whether what the scanner found holds a comment: a finding of medium severity or above, as
 * for a row, but the attack classifier's only from high. A comment is short and speaks to its
 * reader by design ("where does this come from?" is what a question is for), which the
 * classifier reads as prose addressed to an agent; on this build it put such questions at
 * medium, and an attack at high (docs/spec-choices.md).
 */
export function holdsComment(findings: ReadonlyArray<{ kind: string; severity: Severity }>): boolean {
  return findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[f.kind === 'injection.classifier' ? 'high' : 'medium']);
}

/** The author's class, derived from the identity: the operator is an admin; otherwise a person or a program or a local peer. */
export const authorClassOf = (caller: Caller) => (caller.role === 'admin' ? 'operator' : caller.kind);

/**
 * Who reads a held comment's words: its author, signed-in people from reviewer up and the
 * operator at the socket (in a person's copy, secrets and personal data masked). Every other
 * reader, a key of any role among them, gets it as held, without its body: an agent reading a
 * row's thread must not meet the injection a comment carried (docs/spec-choices.md).
 */
function readsHeldWords(caller: Caller, c: CommentRow): 'as_written' | 'persons_copy' | null {
  if (c.author === caller.identity) return 'as_written';
  const person = (caller.kind === 'person' && atLeast(caller.role, 'reviewer')) || (caller.kind === 'local' && caller.role === 'admin');
  return person ? 'persons_copy' : null;
}

/** A comment as this caller gets it; a retracted one is a tombstone without its body. */
function served(c: CommentRow, caller: Caller) {
  const retracted = c.retract_event_id !== null;
  const found = JSON.parse(c.scan_findings) as ScanFinding[];
  const held = c.held === 1;
  const words = retracted ? null : !held ? 'as_written' : readsHeldWords(caller, c);
  return {
    event_id: c.event_id,
    kind: c.kind,
    body: words === null ? null : words === 'persons_copy' ? forPeople(c.body, found) : c.body,
    author: c.author,
    author_class: c.author_class,
    reply_to: c.reply_to,
    findings: JSON.parse(c.findings) as string[],
    audience: c.audience,
    ts: c.ts,
    retracted,
    // What the scanner found in the body: what and where, never the matched text.
    held,
    scan_findings: found.map(({ kind, severity, detail, start, end }) => ({ kind, severity, detail, start, end })),
    ...(retracted ? { retracted_by: c.retracted_by, retracted_ts: c.retracted_ts, retract_event_id: c.retract_event_id } : {}),
  };
}

/** The comments a caller may read on a row it may read: audience people only for signed-in people. */
export function commentsFor(house: Pick<House, 'store'>, caller: Caller, row: ArtifactRow, includeRetracted: boolean) {
  const all = house.store.comments.ofRow(row.artifact_id);
  const shown = all.filter((c) => c.audience === 'all' || caller.kind === 'person');
  const live = shown.filter((c) => c.retract_event_id === null);
  return {
    comments: (includeRetracted ? shown : live).map((c) => served(c, caller)),
    counts: { total: live.length, open_objections: openObjections(all).length, last_ts: live.at(-1)?.ts ?? null },
  };
}

/** A comment as its readers get it: a retracted one a tombstone without its body, a held one without its words but to those who read them. */
export const commentEntryAnswer = z.object({
  retracted_by: z.string().nullable().optional(),
  retracted_ts: z.number().int().nullable().optional(),
  retract_event_id: z.string().nullable().optional(),
  event_id: z.string(),
  kind: z.string(),
  body: z.string().nullable().describe("null when retracted, or when held and this caller is not one who reads a held comment's words"),
  author: z.string(),
  author_class: z.string(),
  reply_to: z.string().nullable(),
  findings: z.array(z.string()),
  audience: z.string(),
  ts: z.number().int(),
  retracted: z.boolean(),
  held: z.boolean().describe('the scanner found in the body a finding that holds it (medium or above; the attack classifier from high)'),
  scan_findings: z.array(placedFindingAnswer).describe("what the scanner found in the body and where, never the matched text"),
});

const commentAnswer = z.object({
  artifact_id: z.string(),
  event_id: z.string(),
  comment: commentEntryAnswer,
  counts: z.object({ total: z.number().int(), open_objections: z.number(), last_ts: z.number().int().nullable() }),
});

export const commentVerb = defineVerb({
  name: 'gv.comment',
  role: 'agent',
  summary: "Comment on a row (note, question, objection, resolution); an operator's open objection holds auto-promotion.",
  params: z.strictObject({
    artifact_id: artifactIdParam,
    body: plainText,
    kind: z.enum(COMMENT_KINDS).optional(),
    reply_to: eventIdParam.optional(),
    findings: z.array(z.string().min(1).max(200)).max(16).optional(),
    audience: z.enum(['all', 'people']).optional(),
  }),
  door: {},
  answer: commentAnswer,
  uses: ['store', 'access', 'pipeline'],
  async handler({ caller, store, access, pipeline }, p) {
    const kind = p.kind ?? 'note';
    const audience = p.audience ?? 'all';
    if (audience === 'people' && (caller.kind !== 'person' || kind !== 'note')) {
      throw invalidParams('audience people is for a note by a signed-in person', { field: 'audience' });
    }
    if (kind === 'resolution' && p.reply_to === undefined) throw invalidParams('a resolution replies to a comment: reply_to is required', { field: 'reply_to' });
    // Asked before the scan, so a refused comment costs no scan; asked again inside the write.
    const allowed = () => {
      const row = access.readableArtifact(caller, p.artifact_id);
      access.capabilities.require(caller, row.space, 'contribute');
      return row;
    };
    allowed();
    // gv.comments serves the body to the row's readers: it is scanned as a claim is.
    const scan = await pipeline.scan.scan(Buffer.from(p.body, 'utf8'), COMMENT_CONTENT_TYPE);
    return store.writer.write(() => {
      const row = allowed();
      if (p.reply_to !== undefined) {
        const parent = store.comments.byId(p.reply_to);
        if (parent === undefined || parent.artifact_id !== row.artifact_id || parent.retract_event_id !== null) {
          throw invalidParams('reply_to is not a live comment on this row', { field: 'reply_to' });
        }
      }
      const data = {
        artifact_id: row.artifact_id,
        space: row.space,
        kind,
        body: p.body,
        findings: p.findings ?? [],
        audience,
        author_class: authorClassOf(caller),
        scan: { findings: scan.findings, held: holdsComment(scan.findings), scanner: scan.scanner },
        ...(row.workarea === null ? {} : { workarea: row.workarea }),
        ...(p.reply_to === undefined ? {} : { reply_to: p.reply_to }),
      };
      const event = store.journal.append('comment', caller.identity, data);
      const comment = served(store.comments.byId(event.event_id)!, caller);
      return { artifact_id: row.artifact_id, event_id: event.event_id, comment, counts: commentsFor({ store }, caller, row, false).counts };
    });
  },
});

const commentRetractAnswer = z.object({ artifact_id: z.string(), event_id: z.string(), retract_event_id: z.string() });

export const commentRetractVerb = defineVerb({
  name: 'gv.comment_retract',
  role: 'agent',
  summary: 'Retract a comment (its author or the operator); it stays as a tombstone and an objection stops holding.',
  params: z.strictObject({ artifact_id: artifactIdParam, event_id: eventIdParam, reason: z.string().min(1).max(500).optional() }),
  answer: commentRetractAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    return store.writer.write(() => {
      const row = access.readableArtifact(caller, p.artifact_id);
      const comment = store.comments.byId(p.event_id);
      if (comment === undefined || comment.artifact_id !== row.artifact_id) throw invalidParams('no such comment on this row', { field: 'event_id' });
      if (comment.retract_event_id !== null) throw invalidParams('the comment is already retracted', { field: 'event_id' });
      if (comment.author !== caller.identity && caller.role !== 'admin') {
        throw invalidParams("only the comment's author or the operator may retract it", { field: 'event_id', reason: 'not_the_author' });
      }
      const data = {
        artifact_id: row.artifact_id,
        space: row.space,
        comment: comment.event_id,
        ...(row.workarea === null ? {} : { workarea: row.workarea }),
        ...(p.reason === undefined ? {} : { reason: p.reason }),
      };
      const event = store.journal.append('comment-retract', caller.identity, data);
      return { artifact_id: row.artifact_id, event_id: comment.event_id, retract_event_id: event.event_id };
    });
  },
});

const commentsAnswer = z.object({
  comments: z.array(commentEntryAnswer),
  counts: z.object({ total: z.number().int(), open_objections: z.number(), last_ts: z.number().int().nullable() }),
  artifact_id: z.string(),
});

export const commentsVerb = defineVerb({
  name: 'gv.comments',
  role: 'reader',
  summary: "A row's comments, oldest first, with counts; retracted ones as tombstones when asked.",
  params: z.strictObject({ artifact_id: artifactIdParam, include_retracted: z.boolean().optional() }),
  answer: commentsAnswer,
  uses: ['store', 'access'],
  handler({ caller, store, access }, p) {
    const row = access.readableArtifact(caller, p.artifact_id);
    return { artifact_id: row.artifact_id, ...commentsFor({ store }, caller, row, p.include_retracted === true) };
  },
});
