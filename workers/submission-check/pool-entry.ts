/**
 * Piscina worker entry for the organization gate's submission checks: bodies as sent by
 * member gates (untrusted bytes) are parsed, their canonical id recomputed and both
 * signatures verified here, off the thread that serves the doors. Bodies arrive in batches,
 * since one pool round trip costs about as much as one check.
 */
import { checkSubmissionText, type TextCheck } from '../../src/org/submission-check.js';

export interface SubmissionCheckTask {
  items: { pathId: string; member: string; text: string }[];
}

export default function checkBatch(task: SubmissionCheckTask): TextCheck[] {
  return task.items.map((item) => checkSubmissionText(item.pathId, item.text, item.member));
}
