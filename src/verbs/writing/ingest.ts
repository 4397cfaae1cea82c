import { z } from 'zod';
import { sha256Hex } from '../../forms/canonical-json.js';
import { defineVerb, type VerbContext } from '../define-verb.js';
import { addressedToParam, artifactIdParam, producerParam, spaceParam, workareaParam } from '../param-types.js';
import { decodeContent } from './content-decoding.js';
import { KINDS, isKind, isRecordedClass, stricterClass, trustClassOfKind, type Kind } from '../../domain/kinds.js';
import { answerBody, questionBody, type AnswerBody } from '../../domain/body-forms.js';
import { checkAnswer } from '../../questions/answer-rules.js';
import { crewCitable } from '../../questions/crew-reads.js';
import { crewSheetProblem } from '../../domain/crew-sheet.js';
import { invalidParams } from '../../gate-error.js';
import { producerOf, type ArtifactRow } from '../../projections/artifact-reads.js';
import { appendRow, artifactOf, enteredState } from './append-row.js';
import { attachmentSources, attachmentsParam, envelopeAttachments } from './ingest-attachments.js';
import { admitWrite } from './write-admission.js';
import { scanRow } from '../../../pipeline/row-scan.js';
import { scanFieldsOf } from '../../scanning/row-fields.js';
import { ingestedAnswer } from '../answer-types.js';

export const QUESTIONS_PER_WRITER_PER_AREA = 8;
/** Every ingest door refuses a supplied trust class by name: the gate derives it. */
export const TRUST_CLASS_REFUSED = { trust_class: 'trust_class is refused: the gate derives it' };
const MAX_DERIVES_FROM = 64;

const params = z.strictObject({
  // workarea first: a request without one is refused naming it, whatever else is sent.
  workarea: workareaParam,
  content: z.string(),
  source_uri: z.string().min(1).max(4096),
  kind: z.enum(KINDS).optional(),
  content_type: z.string().optional(),
  space: spaceParam.optional(),
  encoding: z.literal('base64').optional(),
  producer: producerParam.optional(),
  addressed_to: addressedToParam.optional(),
  derives_from: z.array(artifactIdParam).max(MAX_DERIVES_FROM).optional(),
  attachments: attachmentsParam.optional(),
});
type Params = z.output<typeof params>;

/** A new row's answer: its kind, or its recorded content type when it has none. */
export interface IngestAnswer {
  artifact_id: string;
  state: string;
  space: string;
  workarea: string;
  producer: Params['producer'] | null;
  findings_count: number;
  scan_event: string;
  trust_class: string;
  kind?: string;
  content_type?: string;
  attachments?: Array<{ sha256: string; media_type: string; size_bytes: number }>;
}

function duplicateAnswer(row: ArtifactRow) {
  return {
    artifact_id: row.artifact_id,
    state: row.state,
    space: row.space,
    workarea: row.workarea,
    producer: producerOf(row),
    duplicate: true,
  };
}

/** Exactly one of kind and content_type; content_type is for recorded-path classes only. */
function classOf(p: Params): { kind: Kind | null; contentType: string } {
  if ((p.kind === undefined) === (p.content_type === undefined)) {
    throw invalidParams('give exactly one of kind and content_type', { field: p.kind === undefined ? 'kind' : 'content_type' });
  }
  if (p.kind !== undefined) return { kind: p.kind, contentType: p.kind };
  const ct = p.content_type!;
  if (isRecordedClass(ct)) return { kind: null, contentType: ct };
  if (isKind(ct)) throw invalidParams(`content_type ${ct} is a gated class: send it as kind`, { field: 'content_type' });
  throw invalidParams(`unknown content_type ${JSON.stringify(ct)}; this verb takes recorded-path classes only`, {
    field: 'content_type',
  });
}

function checkAddressing(p: Params, kind: Kind | null): void {
  if (p.addressed_to === undefined) {
    if (kind === 'question') throw invalidParams('a question is addressed to people: addressed_to {kinds: ["person"]}', { field: 'addressed_to' });
    return;
  }
  if (kind !== 'steering' && kind !== 'question') {
    throw invalidParams('addressed_to is for steering and question rows only', { field: 'addressed_to' });
  }
  if (kind === 'question') {
    const kinds = p.addressed_to.kinds ?? [];
    if (kinds.length !== 1 || kinds[0] !== 'person') {
      throw invalidParams('a question is addressed to people: addressed_to.kinds must be exactly ["person"]', {
        field: 'addressed_to.kinds',
      });
    }
  }
}

/** An answer/1 row's parsed body and the question it names first. */
interface AnswerForm {
  body: AnswerBody;
  question: ArtifactRow;
}

/**
 * C8 and the body forms: every parent readable; a question body is question/1; an answer
 * body is answer/1 and names its question first, and what it replaces or cancels also in
 * derives_from. The rules that depend on the question's state are checkAnswer's.
 */
function checkParents(ctx: VerbContext<'store' | 'access' | 'crews'>, p: Params, kind: Kind | null, text: string): AnswerForm | null {
  const { caller, store, access, crews } = ctx;
  const parents = p.derives_from ?? [];
  if (new Set(parents).size !== parents.length) throw invalidParams('derives_from repeats an id', { field: 'derives_from' });
  // An answer's crew exceptions: a member key cites what its crew's routed question lets it read.
  const rows = parents.map((id) => (kind === 'answer' && parents[0] !== undefined ? crewCitable({ store, crews }, caller, parents[0], id) : undefined) ?? access.readableArtifact(caller, id));
  if (kind === 'question') {
    const parsed = questionBody.safeParse(parseJson(text));
    if (!parsed.success) throw invalidParams(`a question body must be question/1: ${parsed.error.issues[0]!.message}`, { field: 'content' });
  }
  if (kind !== 'answer') return null;
  const parsed = answerBody.safeParse(parseJson(text));
  if (!parsed.success) throw invalidParams(`an answer body must be answer/1: ${parsed.error.issues[0]!.message}`, { field: 'content' });
  const question = rows[0];
  if (question === undefined || question.kind !== 'question') {
    throw invalidParams('an answer names its question first in derives_from', { field: 'derives_from' });
  }
  for (const field of ['replaces', 'cancels'] as const) {
    const named = parsed.data[field];
    if (named === undefined) continue;
    const normal = named.startsWith('sha256:') ? named : `sha256:${named}`;
    if (!parents.includes(normal)) throw invalidParams(`${field} must also be named in derives_from`, { field });
  }
  return { body: parsed.data, question };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const ingestAnswer = z.union([
  z.object({
    artifact_id: z.string(),
    state: z.string(),
    space: z.string(),
    workarea: z.string().nullable(),
    producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
    duplicate: z.boolean(),
  }),
  ingestedAnswer,
]);

export const ingestVerb = defineVerb({
  name: 'gv.ingest',
  role: 'agent',
  summary: 'Propose content into a work area; it is scanned and held until reviewed.',
  params,
  refused: TRUST_CLASS_REFUSED,
  door: { sources: (p) => [{ field: 'source_uri', uri: p.source_uri }, ...attachmentSources(p.attachments)] },
  answer: ingestAnswer,
  uses: ['store', 'access', 'pipeline', 'crews', 'deployment', 'config', 'clock'],
  async handler(ctx, p) {
    const { caller, store, access, pipeline, crews, deployment, config, clock } = ctx;
    const admission = admitWrite({ store, access, config }, caller, { space: p.space ?? 'main', workarea: p.workarea });
    const space = admission.space;
    const { kind, contentType } = classOf(p);
    checkAddressing(p, kind);
    admission.contributes();
    const { bytes, text } = decodeContent(p.content, p.encoding);
    const answerForm = checkParents(ctx, p, kind, text);
    const sheetProblem = crewSheetProblem(kind, text);
    if (sheetProblem !== null) throw invalidParams(`a crew sheet body must be crew_sheet/1: ${sheetProblem}`, { field: 'content' });
    if (kind === 'question' && store.artifacts.questionsBy(caller.identity, space, p.workarea) >= QUESTIONS_PER_WRITER_PER_AREA) {
      throw invalidParams(`at most ${QUESTIONS_PER_WRITER_PER_AREA} questions per writer per work area`, { reason: 'question_limit' });
    }
    // An upload a crash cut at its last chunk is completed by the start: an ingest naming uploads waits for that.
    if (p.attachments !== undefined && p.attachments.length > 0) await pipeline.uploadRecovery;
    const attachments = envelopeAttachments({ store }, caller, p.attachments ?? [], kind);

    const contentHash = `sha256:${sha256Hex(bytes)}`;
    // Envelope v2: the attachments are part of what the claim is, so the same words with
    // other files are another row.
    // Asked again inside the write: the rows are read again, the ids are not hashed again.
    const ids = new Map<string, string>();
    const idOf = () => artifactOf({ store, deployment }, caller, contentHash, space, attachments.length === 0 ? {} : { attachments: attachments.map((a) => a.sha256) }, ids);
    let { id: artifactId, row: ownRow } = idOf();
    // The duplicate rule: this writer's own row of these bytes here, or a promoted copy of them.
    const earlierRow = () => ownRow ?? (attachments.length === 0 ? store.artifacts.promotedCopy(contentHash, space) : undefined);
    const earlier = earlierRow();
    if (earlier) return duplicateAnswer(earlier);
    if (answerForm !== null) checkAnswer({ store, crews, clock }, caller, answerForm.question, answerForm.body);
    admission.room();

    // Everything an agent will read of the row: its body, the fields it is served with, its attachments' text.
    const fields = scanFieldsOf({ sourceUri: p.source_uri, workarea: p.workarea, producerName: p.producer?.name ?? null, addressedNames: p.addressed_to?.names ?? [] });
    const scan = await scanRow(pipeline, { bytes, contentType, fields, attachments });
    const baseClass = kind === null ? 'T-1' : trustClassOfKind(kind);
    // An attachment fetched from somewhere is third-party content: the claim rises to T-4.
    const trustClass = attachments.some((a) => a.source_uri !== undefined) ? stricterClass(baseClass, 'T-4') : baseClass;

    return store.writer.write(() => {
      // Re-checked inside the transaction: a completion or a concurrent twin may have landed during the scan.
      admission.stillOpen();
      // An erasure during the scan makes these bytes a new row: the id is read again here.
      ({ id: artifactId, row: ownRow } = idOf());
      const twin = earlierRow();
      if (twin) return duplicateAnswer(twin);
      // Again inside the write: another answer of this writer may have landed during the scan.
      const answerMove = answerForm === null ? null : checkAnswer({ store, crews, clock }, caller, store.artifacts.byId(answerForm.question.artifact_id)!, answerForm.body);
      const ingest: Record<string, unknown> = {};
      if (answerMove !== null) ingest['answer'] = answerMove.answer;
      if (p.producer) ingest['producer'] = p.producer;
      if (p.addressed_to) ingest['addressed_to'] = p.addressed_to;
      if (p.encoding) ingest['encoding'] = p.encoding;
      if (attachments.length > 0) Object.assign(ingest, { envelope: 2, attachments });
      const scanEvent = appendRow({ store, pipeline }, caller, {
        artifactId,
        space,
        workarea: p.workarea,
        bytes,
        contentHash,
        contentType,
        kind,
        trustClass,
        sourceUri: p.source_uri,
        derivesFrom: p.derives_from ?? [],
        ingest,
        recorded: kind === null,
        scan,
      });
      if (answerMove?.refers != null) {
        // The crew gives the question back: it goes to people from this ingest on, its wait starting now.
        const question = answerForm!.question;
        store.journal.append('question-referred', caller.identity, {
          artifact_id: question.artifact_id,
          space: question.space,
          workarea: question.workarea,
          from: 'with_crew',
          crew: answerMove.refers.crew,
          wait_minutes: config.questions.people_wait_minutes,
          referral: { artifact_id: artifactId, crew: answerMove.refers.crew, slot: answerMove.refers.slot },
        });
      }
      if (answerMove?.endsQuestion === true) {
        // The asker's answer/1 cancelling its own question ends it from this ingest on.
        const question = answerForm!.question;
        store.journal.append('question-ended', caller.identity, {
          artifact_id: question.artifact_id,
          space: question.space,
          workarea: question.workarea,
          reason: 'cancelled',
          answer: artifactId,
        });
      }
      const answer: IngestAnswer = {
        artifact_id: artifactId,
        state: enteredState(scanEvent),
        space,
        workarea: p.workarea,
        producer: p.producer ?? null,
        findings_count: scan.findings.length,
        scan_event: scanEvent.event_id,
        trust_class: trustClass,
      };
      if (kind !== null) answer.kind = kind;
      else answer.content_type = contentType;
      if (attachments.length > 0) answer.attachments = attachments.map((a) => ({ sha256: a.sha256, media_type: a.media_type, size_bytes: a.size_bytes }));
      return answer;
      // Its events are signed on the signing thread: this work and the views' folding of an
      // ingest and its scan read no journal row. An answer/1 row reads the question's
      // standing and may append to it, so it signs here as every other write does.
    }, { signLater: answerForm === null });
  },
});
