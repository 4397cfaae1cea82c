/**
 * Piscina worker entry for the organization gate's submission checks: bodies as sent by
 * member gates (untrusted bytes) are parsed, their canonical id recomputed and both
 * signatures verified here, off the thread that serves the doors. Bodies arrive in batches,
 * since one pool round trip costs about as much as one check.
 */
import { checkSubmissionBody, type TextCheck } from './submission-check.js';

export interface SubmissionCheckTask {
  /** `body`: the bytes as sent, read here as the gate's doors read JSON. */
  items: { pathId: string; member: string; body: Uint8Array }[];
}

export default function checkBatch(task: SubmissionCheckTask): TextCheck[] {
  return task.items.map((item) => checkSubmissionBody(item.pathId, item.body, item.member));
}
