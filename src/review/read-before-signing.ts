import { ErrorCode, GateError } from '../gate-error.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { SignerClass } from '../domain/signer-class.js';
import type { Store } from '../store/store.js';

/**
 * The copy of a row's text a reviewer reads before signing: the scanner's masked body.
 * Null when the row has no text to read (an archive, bytes that are not UTF-8): then only
 * its attachments and members are read, each under its own rule.
 */
export function readableBodyHash(house: { readonly store: Store }, row: ArtifactRow): string | null {
  if (row.erased_seq !== null) return null;
  const hash = row.masked_hash ?? row.content_hash;
  return house.store.artifacts.text(hash) === null ? null : hash;
}

/** `review.read_before_signing`: whose decisions wait for a read. */
export type ReadRule = 'people' | 'everyone';

/**
 * Whether a decision of this class waits for its signer's read. A person signs what a screen
 * showed them, so a person's does (and the operator's with a proof, a person's act). For a
 * program the "read" is a request whose answer it may discard: it adds a round trip a page
 * and no assurance, and gv.promote asks quorum alone (docs/protocol.md#gvpromote), so a key's and the socket's
 * do only when the operator sets `everyone`. Models and authorities are judged apart.
 */
export function readRuleBinds(rule: ReadRule, cls: SignerClass): boolean {
  return cls === 'human' || (rule === 'everyone' && cls === 'agent');
}

/**
 * Why an identity's promoting or clearing signature on the row does not count yet, or
 * null: a reviewer must have been served the whole masked body (gv.node body: true, page
 * by page) and every attachment to its end (gv.attachment). A preview is not a read: the
 * text past it is where a hostile line would sit.
 */
export function unreadBeforeSigning(house: { readonly store: Store }, identity: string, row: ArtifactRow): { reason: 'body_unread' | 'attachments_unread'; words: string; unread?: string[] } | null {
  const body = readableBodyHash(house, row);
  if (body !== null && !house.store.bodyReads.progress(identity, row.artifact_id, body).toEnd) {
    return { reason: 'body_unread', words: 'read the whole body first (gv.node with body: true, page by page to its end)' };
  }
  const unread = house.store.attachments.unreadBy(identity, row.artifact_id);
  if (unread.length > 0) {
    return { reason: 'attachments_unread', words: `read every attachment to its end with gv.attachment first (${unread.length} not yet served whole)`, unread };
  }
  return null;
}

/** A decision that would promote or clear a row refuses (-32010) until the decider read it all, when the read rule binds its class. */
export function requireEverythingRead(house: { readonly store: Store }, identity: string, cls: SignerClass, rule: ReadRule, row: ArtifactRow, verb: string): void {
  if (!readRuleBinds(rule, cls)) return;
  const unread = unreadBeforeSigning(house, identity, row);
  if (unread === null) return;
  throw new GateError(ErrorCode.lifecycle, `${verb}: ${unread.words}`, { reason: unread.reason, ...(unread.unread === undefined ? {} : { unread: unread.unread }) });
}

/**
 * Quorum's per-signer condition: why this signer's approval does not count for what it was
 * not served, or null. A model is given the whole masked body by grading and no attachment,
 * so on a row with attachments its verdict never counts.
 */
export function notCountedUnread(house: { readonly store: Store }, rule: ReadRule, identity: string, cls: SignerClass, row: ArtifactRow): string | null {
  if (cls === 'model') return house.store.attachments.ofRow(row.artifact_id).length > 0 ? 'not served every attachment to its end' : null;
  if (!readRuleBinds(rule, cls)) return null;
  return unreadBeforeSigning(house, identity, row)?.words ?? null;
}
