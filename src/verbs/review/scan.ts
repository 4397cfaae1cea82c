import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { artifactIdParam, limitParam } from '../param-types.js';
import { rescanRow } from '../../scanning/rescan.js';
import { scanPending } from '../../scanning/scan-pending.js';
import { rescanOutcomeAnswer, scanPendingReportAnswer } from '../answer-types.js';

export const scanVerb = defineVerb({
  name: 'gv.scan',
  role: 'reviewer',
  summary: 'Scan one row again with the current scanner; a scan event is journaled only when the result differs, and no finding is ever cleared.',
  params: z.strictObject({ artifact_id: artifactIdParam }),
  answer: rescanOutcomeAnswer,
  uses: ['store', 'access', 'pipeline'],
  handler({ caller, store, access, pipeline }, p) {
    return rescanRow({ store, pipeline }, access.readableArtifact(caller, p.artifact_id), caller.identity);
  },
});

export const scanPendingVerb = defineVerb({
  name: 'gv.scan_pending',
  role: 'reviewer',
  summary: 'Scan the rows the scanner still owes: rows left in L0_RAW, and rows in review an older scanner saw (also run at start).',
  params: z.strictObject({ limit: limitParam(10_000).optional() }),
  answer: scanPendingReportAnswer,
  uses: ['store', 'pipeline'],
  handler({ caller, store, pipeline }, p) {
    return scanPending({ store, pipeline }, p.limit ?? 500, caller.identity);
  },
});
