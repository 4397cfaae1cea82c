import { z } from 'zod';
import type { Finding } from '../../../workers/scan/finding.js';
import { aboutRow, rowMove, proven } from './fields.js';
import { declare } from './declare.js';

const finding = z.custom<Finding>();
/** A finding named by its kind and severity (and where), as a rescan names the ones that took a row. */
const namedFinding = z.strictObject({ kind: z.string(), severity: z.string(), location: z.custom<Finding['location']>().optional() });

/** What a scan (or a record) carries: the findings, the masked copy and the scanner that read the row. */
const scanned = z.strictObject({
  ...rowMove,
  findings_count: z.number(),
  findings: z.array(finding),
  masked_hash: z.string(),
  scanner: z.string(),
  reason: z.string().optional(),
  /** A scan after the first (gv.scan, new evidence, a detector's finding). */
  rescan: z.boolean().optional(),
  /** The findings that took a promoted row from its readers. */
  withdrawn_by: z.array(namedFinding).optional(),
  /** The detector whose verdict added the finding. */
  detector: z.string().optional(),
  /** The evidence-added event whose attachments were scanned with the row. */
  evidence: z.string().optional(),
});

/** Rows: written by the ingest doors, scanned again, judged by the detector, erased. */
export const ROW_EVENTS = {
  ingest: declare({
    owner: ['src/verbs/writing/'],
    // The door's own fields (producer, addressed_to, encoding, attachments, a bundle's or map's
    // path…) travel as each door gives them: ingest is the one open event.
    data: z
      .object({
        ...aboutRow,
        workarea: z.string(),
        leaves: z.null(),
        enters: z.literal('L0_RAW'),
        content_hash: z.string(),
        size_bytes: z.number(),
        content_type: z.string(),
        trust_class: z.string(),
        writer_kind: z.string(),
        source_uri: z.string(),
        derives_from: z.array(z.string()),
        kind: z.string().optional(),
      })
      .catchall(z.unknown()),
    folds: ['artifacts', 'workareas', 'attachments', 'relations', 'questions'],
    served: { object: 'row', fields: ['kind', 'size_bytes'] },
  }),
  scan: declare({
    owner: ['src/verbs/writing/', 'src/scanning/', 'src/review/', 'src/verbs/review/'],
    data: scanned,
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: ['findings_count'] },
  }),
  record: declare({
    owner: ['src/verbs/writing/', 'src/scanning/'],
    data: scanned,
    folds: ['artifacts'],
    served: { object: 'row', fields: ['findings_count'] },
  }),
  'scan-checked': declare({
    owner: ['src/scanning/'],
    data: z.strictObject({ ...rowMove, scanner: z.string(), findings_count: z.number() }),
    folds: [],
  }),
  detection: declare({
    owner: ['src/review/'],
    data: z.strictObject({
      ...aboutRow,
      content_hash: z.string(),
      detector: z.string(),
      verdict: z.enum(['attack', 'clean']),
      threshold: z.number(),
      parts: z.number(),
      ms: z.number(),
      label: z.string().optional(),
      score: z.number().optional(),
      start: z.number().optional(),
      end: z.number().optional(),
    }),
    folds: ['detections'],
  }),
  'evidence-added': declare({
    owner: ['src/verbs/review/'],
    data: z.strictObject({
      ...aboutRow,
      /** The ratify event (NEEDS_EVIDENCE) that asked for it, while one stands. */
      request: z.string().optional(),
      /** The attachments as the envelope names them (src/verbs/writing/ingest-attachments.ts). */
      attachments: z.array(z.unknown()),
    }),
    folds: ['attachments'],
  }),
  content_erased: declare({
    owner: ['src/erasure/'],
    data: z.strictObject({
      ...aboutRow,
      trust_class: z.string(),
      content_type: z.string(),
      content_hash: z.string(),
      reason: z.string(),
      objects_removed: z.array(z.string()),
      ...proven,
    }),
    folds: ['artifacts', 'attachments', 'submissions'],
    served: { object: 'row', fields: [] },
  }),
};
