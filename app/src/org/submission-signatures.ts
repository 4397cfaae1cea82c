import canonicalize from 'canonicalize';
import { SUBMISSION_SIGNING_PREFIX } from '../../../src/forms/submission-contract.js';
import { RETRACTION_SIGNING_PREFIX } from '../../../src/forms/retraction-contract.js';
import { verifyEventSignature } from '../../../src/forms/portable-verify.js';
import { checkEvent, type EventCheck, type WhyEvent } from '../event-check.js';
import { sha256Hex } from '../sha256-hex.js';

// A submission as its member gate signed it, checked in this page against the member's
// deployment id, not taken on the organization's word: the body's own signature (which
// covers the content, the local approval and the decisions as the member reported them),
// the content against the hash the envelope names, and each event carried verbatim (the
// ingest that ties the artifact id to that hash, the promote or ratify) as the gate's
// console checks its own journal's events (event-check.ts).

/** A journal event as a submission carries it: its canonical bytes, id and the member's signature. */
export interface CarriedEvent {
  event_id: string;
  event: string;
  sig: string;
}

export interface SubmissionShape {
  artifact_id?: unknown;
  deployment_id?: unknown;
  envelope?: { content_hash?: unknown; size_bytes?: unknown };
  content?: { encoding?: unknown; bytes?: unknown };
  promotions?: CarriedEvent[];
  ingest?: CarriedEvent | null;
}

export interface SignatureCheck {
  /** What was checked, in words ("the member's signature over the submission", "the promote event …"). */
  what: string;
  /** A signature by the member's key (else a hash compared, which no key signs). */
  signed: boolean;
  check: EventCheck;
}

const failed = (why: string): EventCheck => ({ state: 'failed', why });

/** A carried event checked as event-check.ts checks a served one, then read for what it must say about this row. */
async function carried(memberId: string, e: CarriedEvent, artifactId: string, types: readonly string[], extra?: (data: Record<string, unknown>) => string | null): Promise<EventCheck> {
  let envelope: { seq?: number; type?: string; ts?: number; prev?: string | null; by?: string | null; data?: Record<string, unknown> };
  try {
    envelope = JSON.parse(e.event);
  } catch {
    return failed('the signed bytes are not JSON');
  }
  const served = { event_id: e.event_id, seq: envelope.seq, type: envelope.type, ts: envelope.ts, prev: envelope.prev, by: envelope.by, signed: e.event, sig: e.sig, withheld: [] };
  const checked = await checkEvent(memberId, served as unknown as WhyEvent);
  if (checked.state !== 'verified') return checked;
  if (!types.includes(envelope.type ?? '')) return failed(`it is a ${envelope.type} event, not ${types.join(' or ')}`);
  if (envelope.data?.['artifact_id'] !== artifactId) return failed('it names another row');
  const wrong = extra?.(envelope.data) ?? null;
  return wrong === null ? checked : failed(wrong);
}

async function bodySignature(memberId: string, submission: SubmissionShape, id: string, sig: string): Promise<EventCheck> {
  const canonical = canonicalize(submission);
  if (canonical === undefined) return failed('the submission is not JSON');
  if (`sha256:${await sha256Hex(new TextEncoder().encode(canonical))}` !== id) return failed("the body does not hash to the submission's id");
  try {
    return (await verifyEventSignature(memberId, SUBMISSION_SIGNING_PREFIX + canonical, sig)) ? { state: 'verified' } : failed("the signature does not hold for this member's key");
  } catch {
    return failed('the signature is malformed');
  }
}

async function contentMatches(submission: SubmissionShape): Promise<EventCheck> {
  const bytes = submission.content?.bytes;
  if (typeof bytes !== 'string') return failed('the submission carries no content');
  const raw = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
  if (raw.length !== submission.envelope?.size_bytes) return failed(`the content is ${raw.length} bytes; the envelope says ${String(submission.envelope?.size_bytes)}`);
  if (`sha256:${await sha256Hex(raw)}` !== submission.envelope?.content_hash) return failed("the content does not hash to the envelope's content_hash");
  return { state: 'verified' };
}

/** Every check of one submission, in the order a reader follows them. */
export async function checkSubmission(memberId: string, item: { artifact_id: string; submission: SubmissionShape; id: string; sig: string }): Promise<SignatureCheck[]> {
  const s = item.submission;
  const checks: SignatureCheck[] = [];
  checks.push({
    what: "The member's signature over the submission",
    signed: true,
    check: s.deployment_id !== memberId ? failed('the submission names another deployment than the member') : await bodySignature(memberId, s, item.id, item.sig),
  });
  checks.push({ what: "The content against the envelope's hash and size", signed: false, check: await contentMatches(s) });
  checks.push({
    what: 'The ingest event',
    signed: true,
    check: s.ingest
      ? await carried(memberId, s.ingest, item.artifact_id, ['ingest'], (d) => (d['content_hash'] === s.envelope?.content_hash ? null : 'it names another content hash'))
      : failed('the submission carries no ingest event'),
  });
  for (const p of s.promotions ?? []) {
    checks.push({ what: `The ${/"type":"(\w+)"/.exec(p.event)?.[1] ?? 'promotion'} event ${p.event_id.slice(0, 12)}`, signed: true, check: await carried(memberId, p, item.artifact_id, ['promote', 'ratify']) });
  }
  if ((s.promotions ?? []).length === 0) checks.push({ what: 'The promotion', signed: true, check: failed('the submission carries no promote or ratify event') });
  return checks;
}

/** A member's erasure as the organization keeps it: the signed retraction/1 it sent (src/forms/retraction-contract.ts). */
export interface KeptRetraction {
  retraction: { artifact_id: string; deployment_id: string; content_hash: string; erasure_event_id: string; erased_ts: number };
  id: string;
  sig: string;
}

/**
 * An erased submission's one check: the member's signature over its retraction (after the
 * retraction's canonical JSON hashes to its id), naming this row. The submission itself lost
 * its bytes at the organization, so its own signature no longer covers what is kept.
 */
export async function checkRetraction(memberId: string, artifactId: string, kept: KeptRetraction): Promise<SignatureCheck[]> {
  const canonical = canonicalize(kept.retraction);
  let check: EventCheck;
  if (canonical === undefined) check = failed('the retraction is not JSON');
  else if (kept.retraction.artifact_id !== artifactId) check = failed('it names another row');
  else if (kept.retraction.deployment_id !== memberId) check = failed('it names another deployment than the member');
  else if (`sha256:${await sha256Hex(new TextEncoder().encode(canonical))}` !== kept.id) check = failed("the retraction does not hash to its id");
  else {
    try {
      check = (await verifyEventSignature(memberId, RETRACTION_SIGNING_PREFIX + canonical, kept.sig)) ? { state: 'verified' } : failed("the signature does not hold for this member's key");
    } catch {
      check = failed('the signature is malformed');
    }
  }
  return [{ what: "The member's signed retraction (its erasure of this row)", signed: true, check }];
}
