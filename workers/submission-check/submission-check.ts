import { canonicalJson, sha256Hex } from '../../src/forms/canonical-json.js';
import { memberKeys, memberSigned } from '../../src/forms/member-signature.js';
import { isJsonObject } from '../../src/domain/json-object.js';
import { jsonBodyFaultReason, jsonObjectBody } from '../../src/http-rpc/json-object-body.js';
import { SUBMISSION_CONTRACT, SUBMISSION_SIGNING_PREFIX } from '../../src/forms/submission-contract.js';
import type { SigningKeys } from '../../src/forms/signing-keys.js';

/**
 * The local events that promote a row, each with the state it must enter: promote (ACTIVE)
 * or ratify into L3_RATIFIED (waiting for us). A ratify that sends a row back for evidence
 * (NEEDS_EVIDENCE) is signed by the member too, and promotes nothing.
 */
const PROMOTING: ReadonlyMap<string, string> = new Map([
  ['promote', 'ACTIVE'],
  ['ratify', 'L3_RATIFIED'],
]);

/** A member's event a submission shows: its place in the member's journal and its id. */
export type ShownEvent = readonly [seq: number, eventId: string];

export interface CheckedSubmission {
  submission_id: string;
  artifact_id: string;
  deployment_id: string;
  trust_class: string;
  /** The member's journal as the signed submission shows it, (seq, event id) pairs: the org compares them with what it saw before (src/org/member-chains.ts). */
  shown: ShownEvent[];
}

export type SubmissionVerdict = CheckedSubmission | { status: 400 | 409 | 422; error: string };

const ARTIFACT_ID = /^sha256:[0-9a-f]{64}$/;

/**
 * Reads a PUT /submissions/{id} body as README "submission/1" defines it. 400: not a
 * submission/1 body (shape, contract, the path's id, an id that is not the sha256 of the
 * canonical bytes); 422: a well-formed body the org will not take (unsigned or a signature
 * that fails, a deployment other than the key's member, no signed local promotion of this row).
 */
export function checkSubmission(pathId: string, body: unknown, member: string): SubmissionVerdict {
  const bad = (error: string) => ({ status: 400 as const, error });
  const refused = (error: string) => ({ status: 422 as const, error });
  if (!isJsonObject(body)) return bad('the body is {submission, id, sig}');
  const { submission, id, sig } = body as Record<string, unknown>;
  if (!isJsonObject(submission)) return bad('submission must be an object');
  if (submission['contract'] !== SUBMISSION_CONTRACT) return bad(`contract must be "${SUBMISSION_CONTRACT}"`);
  const artifactId = submission['artifact_id'];
  if (typeof artifactId !== 'string' || !ARTIFACT_ID.test(artifactId)) return bad('submission.artifact_id must be sha256:<64 hex>');
  if (artifactId !== pathId) return bad('the artifact id in the path differs from submission.artifact_id');
  const envelope = submission['envelope'];
  if (!isJsonObject(envelope) || typeof envelope['trust_class'] !== 'string') return bad('submission.envelope with a trust_class is required');
  const canonical = canonicalJson(submission);
  if (typeof id !== 'string' || id !== `sha256:${sha256Hex(canonical)}`) return bad('id must be sha256: + the sha256 of the canonical submission');
  const deploymentId = submission['deployment_id'];
  if (typeof deploymentId !== 'string' || deploymentId === '') return bad('submission.deployment_id is required');
  if (typeof sig !== 'string' || sig === '') return refused('unsigned: sig is required');
  if (deploymentId !== member) return refused('wrong deployment: the submission names a deployment other than the one this key was issued to');
  // After `gate key rotate` the member signs with another key: its rotations, signed by the key each retires, prove it from the deployment id.
  const keys = memberKeys(deploymentId, submission['key_rotations']);
  if ('problem' in keys) return refused(`key rotations: ${keys.problem}`);
  if (!memberSigned(keys.current, SUBMISSION_SIGNING_PREFIX + canonical, sig)) return refused("the signature does not verify against the submitting deployment's key");
  if (!hasSignedPromotion(submission['promotions'], artifactId, keys)) {
    return refused('no local promotion: no promote or ratify event of this row signed by the submitting deployment');
  }
  const content = contentMismatch(submission, envelope, artifactId, keys);
  if (content !== null) return content;
  return { submission_id: id, artifact_id: artifactId, deployment_id: deploymentId, trust_class: envelope['trust_class'], shown: shownEvents(submission) };
}

/** The seq a signed event body carries, or null when the body is not an event. */
function seqOf(body: string): number | null {
  try {
    const seq = (JSON.parse(body) as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isInteger(seq) && seq > 0 ? seq : null;
  } catch {
    return null;
  }
}

/** An event signed by the key signing at its seq (the deployment's first key, or a later one its rotations prove). */
function signedAtItsSeq(keys: SigningKeys, body: string, sig: string): boolean {
  const seq = seqOf(body);
  return seq !== null && memberSigned(keys.keyAt(seq), body, sig);
}

/**
 * Every (seq, event id) the signed submission states: its ingest, promotion and decision
 * events, the event each names as prev (at seq - 1), its key rotations. The member signed the
 * whole, so each pair is the member's word on its own journal.
 */
function shownEvents(submission: Record<string, unknown>): ShownEvent[] {
  const shown = new Map<number, string>();
  const add = (seq: unknown, id: unknown, prev?: unknown) => {
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 1 || typeof id !== 'string') return;
    shown.set(seq, id);
    if (typeof prev === 'string' && seq > 1) shown.set(seq - 1, prev);
  };
  const fromBody = (e: unknown) => {
    if (!isJsonObject(e) || typeof e['event'] !== 'string') return;
    try {
      const body = JSON.parse(e['event']) as { seq?: unknown; prev?: unknown };
      add(body.seq, e['event_id'], body.prev);
    } catch {
      // not an event; the checks above refused what they need
    }
  };
  fromBody(submission['ingest']);
  for (const p of Array.isArray(submission['promotions']) ? submission['promotions'] : []) fromBody(p);
  for (const d of Array.isArray(submission['decisions']) ? submission['decisions'] : []) if (isJsonObject(d)) add(d['seq'], d['event_id'], d['prev']);
  for (const r of Array.isArray(submission['key_rotations']) ? submission['key_rotations'] : []) if (isJsonObject(r)) add(r['seq'], r['event_id']);
  return [...shown].sort((a, b) => a[0] - b[0]);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What an org reviewer countersigns is the bytes in `content`, and what becomes ACTIVE at the
 * member is the row named by the artifact id: both must be the same. The bytes must hash to
 * `envelope.content_hash` (and be `size_bytes` long), and the row's ingest event, signed by
 * the deployment, must name this artifact id with this content hash (an artifact id is a hash
 * over the content hash and more the org cannot see, so the signed ingest is what ties them).
 */
function contentMismatch(submission: Record<string, unknown>, envelope: Record<string, unknown>, artifactId: string, keys: SigningKeys) {
  const content = submission['content'];
  if (!isJsonObject(content) || content['encoding'] !== 'base64' || typeof content['bytes'] !== 'string' || !BASE64.test(content['bytes'])) {
    return { status: 400 as const, error: "submission.content is {encoding: \"base64\", bytes}, the row's bytes in base64" };
  }
  const bytes = Buffer.from(content['bytes'], 'base64');
  if (bytes.toString('base64') !== content['bytes']) return { status: 400 as const, error: 'submission.content.bytes is not canonical base64' };
  const contentHash = `sha256:${sha256Hex(bytes)}`;
  if (envelope['content_hash'] !== contentHash) {
    return { status: 422 as const, error: `content mismatch: the bytes in submission.content hash to ${contentHash}, not envelope.content_hash` };
  }
  if (envelope['size_bytes'] !== bytes.length) return { status: 422 as const, error: `content mismatch: the bytes are ${bytes.length} long, not envelope.size_bytes` };
  if (!ingestNames(submission['ingest'], artifactId, contentHash, keys)) {
    return { status: 422 as const, error: "artifact mismatch: submission.ingest is not this artifact's ingest event naming this content hash, signed by the submitting deployment" };
  }
  return null;
}

/** Whether `ingest` is `{event_id, event, sig}`: the row's ingest event as journaled, signed by the deployment, naming both the artifact and its content hash. */
function ingestNames(ingest: unknown, artifactId: string, contentHash: string, keys: SigningKeys): boolean {
  if (!isJsonObject(ingest) || typeof ingest['event'] !== 'string' || typeof ingest['sig'] !== 'string') return false;
  if (ingest['event_id'] !== sha256Hex(ingest['event'])) return false;
  try {
    if (!signedAtItsSeq(keys, ingest['event'], ingest['sig'])) return false;
    const event = JSON.parse(ingest['event']) as { type?: unknown; data?: { artifact_id?: unknown; content_hash?: unknown } };
    return event.type === 'ingest' && event.data?.artifact_id === artifactId && event.data?.content_hash === contentHash;
  } catch {
    return false;
  }
}

function hasSignedPromotion(promotions: unknown, artifactId: string, keys: SigningKeys): boolean {
  if (!Array.isArray(promotions)) return false;
  return promotions.some((p) => {
    if (!isJsonObject(p) || typeof p['event'] !== 'string' || typeof p['sig'] !== 'string') return false;
    if (p['event_id'] !== sha256Hex(p['event'])) return false;
    try {
      if (!signedAtItsSeq(keys, p['event'], p['sig'])) return false;
      const event = JSON.parse(p['event']) as { type?: unknown; data?: { artifact_id?: unknown; enters?: unknown } };
      return typeof event.type === 'string' && PROMOTING.has(event.type) && event.data?.enters === PROMOTING.get(event.type) && event.data?.artifact_id === artifactId;
    } catch {
      return false;
    }
  });
}

/**
 * Whether a person's signature counted in the row's local approval (gv.approval's
 * approved_by.human), as the member's deployment signed it into the submission.
 */
export function personSigned(submission: Record<string, unknown>): boolean {
  const approval = submission['approval'];
  if (!isJsonObject(approval) || !isJsonObject(approval['approved_by'])) return false;
  const human = approval['approved_by']['human'];
  return typeof human === 'number' && human > 0;
}

export interface TextCheck {
  verdict: SubmissionVerdict;
  /** For the org's t1_person_signed policy: whether a person's signature counted locally. */
  personSigned: boolean;
}

/**
 * A PUT body's bytes as sent, read and checked: what the check pool's workers run (untrusted
 * bytes never parsed on the main thread). Read as every gate door reads JSON
 * (src/http-rpc/json-object-body.ts): not UTF-8, a lone surrogate, a repeated key in any spelling or a
 * nesting past the depth limit is refused 400 with why, so the body stored is the one checked.
 */
export function checkSubmissionBody(pathId: string, bytes: Uint8Array, member: string): TextCheck {
  const read = jsonObjectBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if ('fault' in read) {
    const error = read.fault === 'not_object' ? 'the body is {submission, id, sig}' : jsonBodyFaultReason(read);
    return { verdict: { status: 400, error }, personSigned: false };
  }
  const body = read.value;
  const verdict = checkSubmission(pathId, body, member);
  return { verdict, personSigned: !('status' in verdict) && personSigned((body as { submission: Record<string, unknown> }).submission) };
}
