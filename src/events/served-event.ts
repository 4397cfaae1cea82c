import type { JournalEvent } from '../journal/event.js';

/** Event types served by gv.events (spec 1 Events); every other journal type stays inside. */
export const SERVED_TYPES = [
  'ingest', 'scan', 'record', 'verdict', 'manual-sign', 'disposition', 'ratify', 'promote', 'reject', 'expire',
  'cancel', 'reopen', 'demote', 'refuse', 'relation', 'countersign', 'tip-override', 'steering-shown', 'sign-asked',
  'confirm-sign', 'review-confirmed', 'question-routed', 'question-answered-by-crew', 'question-referred',
  'question-wait-over', 'rank', 'hide', 'title', 'assessment', 'comment', 'comment-retract', 'content_erased',
  'replacement-proposed', 'replacement-prepared', 'replacement-activated', 'replacement-aborted',
  'workarea-completed', 'workarea-related', 'space-created', 'space-linked', 'space-unlinked',
] as const;

const SERVED = new Set<string>(SERVED_TYPES);
export const isServedType = (type: string) => SERVED.has(type);

const SPACE_REGISTRY = new Set(['space-created', 'space-linked', 'space-unlinked']);
export const isSpaceRegistryEvent = (type: string) => SPACE_REGISTRY.has(type);

function objectOf(type: string): string {
  if (type.startsWith('replacement-')) return 'group';
  if (type.startsWith('workarea-')) return 'workarea';
  if (SPACE_REGISTRY.has(type)) return 'space';
  return 'row';
}

/**
 * Each type's own fields that may leave the gate: identifiers, closed words and counts.
 * Content, findings, reasons and any words a person wrote never do (spec 1 Events).
 */
const OWN_FIELDS: Record<string, readonly string[]> = {
  ingest: ['kind', 'size_bytes'],
  scan: ['findings_count'],
  record: ['findings_count'],
  'space-created': ['policy'],
  // Closed words and identifiers only: a completion's or relation's note never leaves the gate.
  'workarea-completed': ['identity'],
  'workarea-related': ['kind', 'target'],
  relation: ['kind', 'group_id'],
  promote: ['group_id', 'signer_class'],
  // A group's own fields: its id and closed words. The proposal's reason is a person's words and stays inside.
  'replacement-proposed': ['group_id', 'operation'],
  'replacement-prepared': ['group_id'],
  'replacement-activated': ['group_id', 'self_signed'],
  'replacement-aborted': ['group_id', 'reason'],
  'tip-override': ['pinned'],
  hide: ['audience', 'lift', 'lowered'],
  // Review: closed words and labels only; a verdict's score, rationale and evidence stay inside.
  verdict: ['decision', 'stance', 'model_label', 'rubric'],
  'manual-sign': ['decision', 'signer_class'],
  disposition: ['decision', 'signer_class'],
  ratify: ['signer_class'],
  reject: ['category'],
  reopen: ['reopens'],
  // A comment's kind only: its body, findings and any reason are a person's words.
  comment: ['kind', 'audience'],
  'comment-retract': ['comment'],
  rank: ['audience', 'weight'],
};

/** Lists served as their length only: how many rows, not which (the rows' own events name them). */
const COUNTED_FIELDS: Record<string, Readonly<Record<string, string>>> = {
  'replacement-proposed': { parent_ids: 'parents', child_ids: 'children' },
  'replacement-activated': { promoted: 'promoted', superseded: 'superseded' },
  'replacement-aborted': { evidence: 'evidence' },
  'sign-asked': { to: 'asked' },
};

export interface ServedEvent {
  type: string;
  event_id: string;
  [field: string]: unknown;
}

export function servedEvent(event: JournalEvent): ServedEvent {
  const d = event.data;
  const out: ServedEvent = {
    type: event.type,
    object: objectOf(event.type),
    artifact_id: d['artifact_id'] ?? null,
    space: d['space'] ?? null,
    workarea: d['workarea'] ?? null,
    leaves: d['leaves'] ?? null,
    enters: d['enters'] ?? null,
    by: event.by,
    event_id: event.event_id,
    ts: event.ts,
  };
  for (const key of ['trust_class', 'content_type', 'provisional'] as const) if (d[key] !== undefined) out[key] = d[key];
  for (const key of OWN_FIELDS[event.type] ?? []) if (d[key] !== undefined) out[key] = d[key];
  for (const [key, name] of Object.entries(COUNTED_FIELDS[event.type] ?? {})) {
    if (Array.isArray(d[key])) out[name] = (d[key] as unknown[]).length;
  }
  return out;
}
