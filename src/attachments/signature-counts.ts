import type { Gate } from '../gate.js';
import { ErrorCode, GateError } from '../gate-error.js';

/**
 * Spec 2 gv.attachment: "a promoting or clearing signature counts only from an identity
 * served every attachment to its end". This is the one place that says whether it does;
 * every decision that promotes or clears a row with attachments asks here.
 */
export function signatureCounts(gate: Gate, identity: string, artifactId: string): boolean {
  return gate.attachments.unreadBy(identity, artifactId).length === 0;
}

/** Refuses (-32010, reason attachments_unread, naming the hashes) a signature that would not count. */
export function requireEveryAttachmentServed(gate: Gate, identity: string, artifactId: string, verb: string): void {
  const unread = gate.attachments.unreadBy(identity, artifactId);
  if (unread.length === 0) return;
  throw new GateError(
    ErrorCode.lifecycle,
    `${verb}: read every attachment to its end with gv.attachment first (${unread.length} not yet served whole)`,
    { reason: 'attachments_unread', unread },
  );
}
