import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../journal/canonical-json.js';
import { defineVerb, type VerbContext } from './define-verb.js';
import { addressedToParam, artifactIdParam, producerParam, spaceParam, workareaParam } from './param-types.js';
import { requireSpace } from './require-space.js';
import { decodeContent } from './content-decoding.js';
import { KINDS, isKind, isRecordedClass, trustClassOfKind, type Kind } from '../domain/kinds.js';
import { answerBody, questionBody } from '../domain/body-forms.js';
import { invalidParams, quarantineFull } from '../gate-error.js';
import { producerOf, type ArtifactRow } from '../projections/artifact-reads.js';
import { isPromoted } from '../domain/states.js';
import { refuseCompletedPart } from './work-complete.js';

export const QUESTIONS_PER_WRITER_PER_AREA = 8;
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
});
type Params = z.output<typeof params>;

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

/** C8 and the answer/1 rules: every parent readable; an answer names its question first. */
function checkParents(ctx: VerbContext, p: Params, kind: Kind | null, text: string): void {
  const { gate, caller } = ctx;
  const parents = p.derives_from ?? [];
  if (new Set(parents).size !== parents.length) throw invalidParams('derives_from repeats an id', { field: 'derives_from' });
  const rows = parents.map((id) => gate.readableArtifact(caller, id));
  if (kind === 'question') {
    const parsed = questionBody.safeParse(parseJson(text));
    if (!parsed.success) throw invalidParams(`a question body must be question/1: ${parsed.error.issues[0]!.message}`, { field: 'content' });
  }
  if (kind === 'answer') {
    const parsed = answerBody.safeParse(parseJson(text));
    if (!parsed.success) throw invalidParams(`an answer body must be answer/1: ${parsed.error.issues[0]!.message}`, { field: 'content' });
    const question = rows[0];
    if (question === undefined || question.kind !== 'question') {
      throw invalidParams('an answer names its question first in derives_from', { field: 'derives_from' });
    }
    if (!isPromoted(question.state) || question.state === 'SUPERSEDED') {
      throw invalidParams('the question is held or ended', { field: 'derives_from' });
    }
    for (const field of ['replaces', 'cancels'] as const) {
      const named = parsed.data[field];
      if (named === undefined) continue;
      const normal = named.startsWith('sha256:') ? named : `sha256:${named}`;
      if (!parents.includes(normal)) throw invalidParams(`${field} must also be named in derives_from`, { field });
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const ingestVerb = defineVerb({
  name: 'gv.ingest',
  role: 'agent',
  summary: 'Propose content into a work area; it is scanned and held until reviewed.',
  params,
  refused: { trust_class: 'trust_class is refused: the gate derives it' },
  async handler(ctx, p) {
    const { gate, caller } = ctx;
    const space = requireSpace(gate, p.space ?? 'main');
    const { kind, contentType } = classOf(p);
    checkAddressing(p, kind);
    gate.capabilities.require(caller, space, 'contribute');
    refuseCompletedPart(gate, caller.identity, space, p.workarea);
    const { bytes, text } = decodeContent(p.content, p.encoding);
    checkParents(ctx, p, kind, text);
    if (kind === 'question' && gate.artifacts.questionsBy(caller.identity, space, p.workarea) >= QUESTIONS_PER_WRITER_PER_AREA) {
      throw invalidParams(`at most ${QUESTIONS_PER_WRITER_PER_AREA} questions per writer per work area`, { reason: 'question_limit' });
    }

    const contentHash = `sha256:${sha256Hex(bytes)}`;
    const artifactId = `sha256:${sha256Hex(
      canonicalJson({ content_hash: contentHash, space, writer_identity: caller.identity, deployment_id: gate.deploymentId }),
    )}`;
    // The duplicate rule: this writer's own row of these bytes here, or a promoted copy of them.
    const earlierRow = () => gate.artifacts.byId(artifactId) ?? gate.artifacts.promotedCopy(contentHash, space);
    const earlier = earlierRow();
    if (earlier) return duplicateAnswer(earlier);

    const held =
      gate.artifacts.countInState('L0_RAW') + gate.artifacts.countInState('L1_SCANNED') + gate.artifacts.countInState('L1B_FLAGGED');
    if (held >= gate.config.quarantine.max_depth) throw quarantineFull(gate.config.quarantine.retry_after_ms);

    const scan = await gate.scan.scan(bytes);
    const trustClass = kind === null ? 'T-1' : trustClassOfKind(kind);
    const recorded = kind === null;
    const enters = recorded ? 'RECORDED' : scan.flagged ? 'L1B_FLAGGED' : 'L1_SCANNED';
    // With no finding the masked body is the body itself: one stored copy serves both.
    const maskedBytes = scan.findings.length === 0 ? bytes : Buffer.from(scan.masked, 'utf8');
    const maskedHash = scan.findings.length === 0 ? contentHash : `sha256:${sha256Hex(maskedBytes)}`;

    return gate.writer.write(() => {
      // Re-checked inside the transaction: a completion or a concurrent twin may have landed during the scan.
      refuseCompletedPart(gate, caller.identity, space, p.workarea);
      const twin = earlierRow();
      if (twin) return duplicateAnswer(twin);
      gate.journal.putBlob(contentHash, bytes);
      if (maskedHash !== contentHash) gate.journal.putBlob(maskedHash, maskedBytes);
      const ingestData: Record<string, unknown> = {
        artifact_id: artifactId,
        space,
        workarea: p.workarea,
        leaves: null,
        enters: 'L0_RAW',
        content_hash: contentHash,
        size_bytes: bytes.length,
        content_type: contentType,
        trust_class: trustClass,
        writer_kind: caller.kind,
        source_uri: p.source_uri,
        derives_from: p.derives_from ?? [],
      };
      if (kind !== null) ingestData['kind'] = kind;
      if (p.producer) ingestData['producer'] = p.producer;
      if (p.addressed_to) ingestData['addressed_to'] = p.addressed_to;
      if (p.encoding) ingestData['encoding'] = p.encoding;
      gate.journal.append('ingest', caller.identity, ingestData);
      const scanEvent = gate.journal.append(recorded ? 'record' : 'scan', caller.identity, {
        artifact_id: artifactId,
        space,
        workarea: p.workarea,
        leaves: 'L0_RAW',
        enters,
        trust_class: trustClass,
        content_type: contentType,
        findings_count: scan.findings.length,
        findings: scan.findings,
        masked_hash: maskedHash,
        scanner: scan.scanner,
      });
      const answer: Record<string, unknown> = {
        artifact_id: artifactId,
        state: enters,
        space,
        workarea: p.workarea,
        producer: p.producer ?? null,
        findings_count: scan.findings.length,
        scan_event: scanEvent.event_id,
        trust_class: trustClass,
      };
      if (kind !== null) answer['kind'] = kind;
      else answer['content_type'] = contentType;
      return answer;
    });
  },
});
