import type { Gate } from '../gate.js';
import { ErrorCode, GateError } from '../gate-error.js';

/**
 * Spec 2 gv.attachment: "a promoting or clearing signature counts only from an identity
 * served every attachment to its end". A decision that would promote or clear a row refuses
 * here (-32010, reason attachments_unread, naming the hashes); quorum leaves such a
 * signature uncounted (ReviewBoard's unreadAttachments, the same AttachmentReads.unreadBy).
 */
export function requireEveryAttachmentServed(gate: Gate, identity: string, artifactId: string, verb: string): void {
  const unread = gate.attachments.unreadBy(identity, artifactId);
  if (unread.length === 0) return;
  throw new GateError(
    ErrorCode.lifecycle,
    `${verb}: read every attachment to its end with gv.attachment first (${unread.length} not yet served whole)`,
    { reason: 'attachments_unread', unread },
  );
}
