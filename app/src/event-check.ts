import canonicalize from 'canonicalize';
import { verifyEventSignature } from '../../src/forms/portable-verify.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';
import { sha256Hex } from './sha256-hex.js';

// A row's events checked in this page, not taken on the gate's word: the signed bytes gv.why
// hands over must be canonical JSON, hash to the event id, say what the served event says,
// and carry an Ed25519 signature by the deployment key /identity names.

export type EventCheck =
  | { state: 'verified' }
  | { state: 'failed'; why: string }
  /** The gate keeps the bytes back: the event holds fields this person is not served. */
  | { state: 'withheld'; fields: string[] };

/** One event of gv.why's answer, typed by the verb's own declaration. */
export type WhyEvent = VerbAnswer<'gv.why'>['events'][number];

/** Served fields that are the event's place, its signature or a count made from a list, not a copy of one signed value. */
const NOT_COPIED = new Set(['type', 'object', 'event_id', 'seq', 'prev', 'ts', 'by', 'sig', 'verified', 'signed', 'withheld', 'parents', 'children', 'asked', 'evidence', 'promoted', 'superseded']);
/** The common fields a served event always carries, null when the signed data has none. */
const ALWAYS = new Set(['artifact_id', 'space', 'workarea', 'leaves', 'enters']);

/** `signingKey`: the deployment's key at the event's seq (its id, or after a rotation the key the rotations prove). */
export async function checkEvent(signingKey: string, e: WhyEvent): Promise<EventCheck> {
  if (e.signed === null) return { state: 'withheld', fields: e.withheld };
  let envelope: { v: number; seq: number; type: string; ts: number; prev: string | null; by: string | null; data: Record<string, unknown> };
  try {
    envelope = JSON.parse(e.signed);
  } catch {
    return { state: 'failed', why: 'the signed bytes are not JSON' };
  }
  try {
    if (!(await verifyEventSignature(signingKey, e.signed, e.sig))) return { state: 'failed', why: "the signature does not hold for this deployment's key" };
  } catch {
    return { state: 'failed', why: 'the signature is malformed' };
  }
  if (canonicalize(envelope) !== e.signed) return { state: 'failed', why: 'the signed bytes are not in canonical form' };
  const digest = await sha256Hex(new TextEncoder().encode(e.signed));
  if (digest !== e.event_id) return { state: 'failed', why: 'the signed bytes do not hash to the event id' };
  for (const key of ['seq', 'type', 'ts', 'prev', 'by'] as const) {
    if (envelope[key] !== e[key]) return { state: 'failed', why: `the event as shown differs from what was signed (${key})` };
  }
  for (const [key, shown] of Object.entries(e)) {
    if (NOT_COPIED.has(key) || (!(key in envelope.data) && !ALWAYS.has(key))) continue;
    if (JSON.stringify(envelope.data[key] ?? null) !== JSON.stringify(shown)) return { state: 'failed', why: `the event as shown differs from what was signed (${key})` };
  }
  return { state: 'verified' };
}
