import { z } from 'zod';
import { ROLES } from '../domain/roles.js';
import { BLOCKERS } from '../review/blockers.js';
import { DEGRADATION_REASONS } from '../review/degraded.js';
import { ROW_FIELDS } from '../../workers/scan/finding-location.js';
import { servedEventSchema } from '../events/served-event.js';
import { inclusionSchema } from './reading/log-proofs.js';

/**
 * The pieces several verbs' answers share, declared once as param-types.ts declares shared
 * params. Objects are open (`z.object`): a client keeps reading an answer that grew a field.
 */

export const roleAnswer = z.enum(ROLES);

/** Who in the harness wrote a row: `{name, kind}`, null for a row written without one. */
export const producerAnswer = z.object({ name: z.string(), kind: z.string().nullable() }).nullable();

/**
 * What the scanner found in a served row: its kinds and severities, never the matched text
 * (src/projections/finding-marks.ts). Medium or above held the row until a person approved it
 * all the same: read it with care.
 */
export const scannerFindingsAnswer = z
  .array(z.object({ kind: z.string().describe('family.rule, e.g. injection.ignore_previous'), severity: z.string().describe('low, medium, high or veto') }))
  .optional()
  .describe('present only when the scanner found something in this row (kinds and severities, most severe first; never the matched text): a row held for findings that a person approved all the same');

/** A journal event's id (64 hex). */
export const eventIdAnswer = z.string().describe('the journal event id (64 hex)');

/** An event served with its place in the chain and its signature, checked by the gate (src/events/signed-history.ts). */
export const signedEventAnswer = servedEventSchema.extend({
  seq: z.number().int(),
  prev: z.string().nullable().describe('the event before it in the journal'),
  sig: z.string().describe("Ed25519 over the event's canonical bytes, by the deployment key"),
  verified: z.boolean().describe('the signature checked against deployment_id, by the gate'),
});

/** A signed event with its inclusion proof in the checkpoint answered beside it. */
export const provenEventAnswer = signedEventAnswer.extend({ inclusion: inclusionSchema });

/** A row's metadata as inventory and the listings answer it, never its content (src/projections/row-metadata.ts). */
export const rowMetadataAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  space: z.string(),
  workarea: z.string().nullable(),
  kind: z.string().nullable(),
  content_type: z.string(),
  trust_class: z.string(),
  writer_identity: z.string(),
  writer_kind: z.string(),
  producer: producerAnswer,
  source_uri: z.string(),
  size_bytes: z.number().int(),
  findings_count: z.number().int(),
  held: z.boolean(),
  provisional: z.boolean(),
  self_authored: z.boolean().describe('you wrote it (nobody may promote their own claim)'),
  ts: z.number().int().describe('when it was written'),
  state_ts: z.number().int().describe('when it entered its state'),
  age_ms: z.number().int(),
});

/** What a reviewer asked for, on a row sent back for evidence, to its writer and to reviewers. */
export const evidenceAskedAnswer = z.string().optional().describe('on a row sent back for evidence: what the reviewer asked for (to its writer and reviewers)');

/** An answer that says whether it changed anything and, when it did, the event it wrote. */
export const changedAnswer = { changed: z.boolean(), event_id: eventIdAnswer.optional() };

export const degradationAnswer = z.object({
  reason: z.enum(DEGRADATION_REASONS),
  detail: z.string(),
});

export const ingestedAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  space: z.string(),
  workarea: z.string(),
  producer: z.object({ name: z.string(), kind: z.enum(['agent', 'person', 'hook', 'tool']) }).nullable().optional(),
  findings_count: z.number().int(),
  scan_event: z.string(),
  trust_class: z.string(),
  kind: z.string().optional(),
  content_type: z.string().optional(),
  attachments: z.array(z.object({ sha256: z.string(), media_type: z.string(), size_bytes: z.number().int() })).optional(),
});

export const waitsForAnswer = z.object({
  blocker: z.enum(BLOCKERS),
  code: z.string(),
  words: z.string(),
  rubric: z.string().optional(),
  missing: z.object({ signatures: z.number(), people: z.number() }).optional(),
  stance: z.string().optional(),
  failure: z.string().optional(),
});

export const evidenceRequestAnswer = z.object({
  event_id: z.string(),
  by: z.string().nullable(),
  ts: z.number().int(),
  asks: z.string(),
  answered: z.object({
    event_id: z.string(),
    ts: z.number().int(),
    attachments: z.array(z.object({ sha256: z.string(), name: z.string().nullable() })),
  }).nullable(),
});

/** Where a finding is when it is not in the row's body (workers/scan/finding-location.ts). */
export const findingLocationAnswer = z.object({
  field: z.enum(ROW_FIELDS).optional().describe("a field of the row, or with attachment that field of the attachment"),
  attachment: z.string().optional().describe('an attachment, by its hash (sha256:<hex>): its text, or with field that field of it'),
});

/** A finding and where it is, never the matched text: start and end count in the body, or in the text its location names. */
export const placedFindingAnswer = z.object({
  kind: z.string(),
  severity: z.string(),
  detail: z.string(),
  start: z.number(),
  end: z.number(),
  location: findingLocationAnswer.optional().describe('absent for a finding in the body'),
});

export const addressedToAnswer = z.object({ names: z.array(z.string()).optional(), kinds: z.array(z.string()).optional() });

export const steeringItemAnswer = z.object({
  artifact_id: z.string(),
  body: z.string().nullable(),
  space: z.string(),
  workarea: z.string().nullable(),
  distance: z.number().int(),
  producer: z.object({ name: z.string(), kind: z.string().nullable() }).nullable(),
  writer: z.object({ identity: z.string(), kind: z.string() }),
  addressed_to: addressedToAnswer.nullable(),
  promoted_at: z.number().int().nullable(),
  provisional: z.boolean(),
  scanner_findings: scannerFindingsAnswer,
});


export const heldTextCheckAnswer = z.object({
  checked: z.number(),
  equal: z.number(),
  missing: z.number(),
  differing: z.number(),
  extra: z.number(),
  rewritten: z.number(),
  ms: z.number(),
});

export const vectorCheckAnswer = z.object({
  model: z.string(),
  checked: z.number(),
  equal: z.number(),
  missing: z.number(),
  rewritten: z.number(),
  failed: z.number(),
  ms: z.number(),
});


export const pullTallyAnswer = z.object({
  pulled: z.number(),
  countersigned: z.number().int(),
  refused: z.number().int(),
  duplicates: z.number(),
  skipped: z.number(),
  cursor: z.number(),
  org_deployment_id: z.string().nullable(),
});

export const proofCheckAnswer = z.object({
  valid: z.boolean(),
  operator_key: z.string().optional(),
  nonce: z.enum(['unknown', 'expired', 'fresh', 'used']),
});

export const stanceRunAnswer = z.object({
  stance: z.string(),
  backend: z.string(),
  model_label: z.string(),
  state: z.enum(['completed', 'failed', 'blocked']),
  from_record: z.boolean(),
  run_id: z.string().nullable(),
  cost_tokens: z.number(),
  decision: z.enum(['reject', 'approve']).optional(),
  score: z.number().optional(),
  rationale: z.string().optional(),
  evidence: z.array(z.string()).optional(),
  counterevidence: z.array(z.string()).optional(),
  verdict_event_id: z.string().optional(),
  failure: z.string().optional(),
  detail: z.string().optional(),
});

export const scheduleStatusAnswer = z.object({
  every_ms: z.number().int(),
  running: z.boolean(),
  runs: z.number(),
  overlaps_skipped: z.number(),
  last_started: z.number().nullable(),
  last_finished: z.number().nullable(),
  last_result: z.record(z.string(), z.unknown()).nullable(),
  last_error: z.string().nullable(),
});

export const liveRunAnswer = z.object({
  run_id: z.string(),
  artifact_id: z.string(),
  space: z.string(),
  backend: z.string(),
  model_label: z.string(),
  stance: z.string(),
  state: z.enum(['queued', 'running']),
  since: z.number(),
});

export const rescanOutcomeAnswer = z.object({
  artifact_id: z.string(),
  state: z.string(),
  changed: z.boolean(),
  event_id: z.string().optional(),
  scanner: z.string(),
  findings_count: z.number().int(),
  added: z.array(z.object({ kind: z.string(), severity: z.string() })),
  not_found_again: z.number(),
});

export const scanPendingReportAnswer = z.object({
  examined: z.number(),
  raw: z.number(),
  outdated: z.number(),
  scanned: z.number(),
  unchanged: z.number(),
  flagged: z.number(),
  skipped: z.record(z.string(), z.number()),
  truncated: z.boolean(),
  scanner: z.string(),
});

export const surfaceChangeAnswer = z.object({ added: z.number(), removed: z.number() });

export const secretNameAnswer = z.object({ key: z.string(), variable: z.string(), set: z.boolean() });

export const runnerSettingsAnswer = z.object({
  label: z.string(),
  paused: z.boolean(),
  max_running: z.number(),
  budget_per_day: z.number(),
  command: z.string().optional(),
  plugin_dir: z.string().optional(),
  workdir_root: z.string().optional(),
  repository: z.string().nullable(),
  deny_read: z.array(z.string()),
  managed_settings: z.array(z.string()).nullable(),
  poll_seconds: z.number(),
  idle_poll_seconds: z.number(),
  grace_seconds: z.number(),
  key_seconds: z.number(),
  progress_seconds: z.number(),
  base_url: z.string().nullable().optional(),
  models: z.object({
    retention_days_accepted: z.number().optional(),
    review: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
    reasoning: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
    research: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
    coding: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
    fast: z.object({ model: z.string(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
  }),
});

export const robotsExceptionAnswer = z.object({
  origin: z.string(),
  path_prefix: z.string(),
  reason: z.string(),
  issued_by: z.string().nullable(),
  issued_at: z.number().int(),
  until: z.number().optional(),
  event_id: z.string(),
});
