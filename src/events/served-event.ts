import { z } from 'zod';
import type { JournalEvent } from '../forms/event.js';
import { SERVED_FIELD_TYPES, type ServedField } from './served-event-fields.js';

/** Event types served by gv.events (docs/protocol.md#events); every other journal type stays inside. */
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

/**
 * Served types of the protocol (docs/protocol.md#events) that no act of this build journals: no verb links spaces, shows
 * steering as an event, confirms a sign or titles a row. A gv.events filter naming one is
 * refused by name rather than answered with an empty page, which would say nothing happened
 * where nothing can. `test/verbs/events-never-written.test.ts` holds this list to the code.
 */
export const NEVER_WRITTEN: ReadonlySet<string> = new Set(['steering-shown', 'confirm-sign', 'review-confirmed', 'title', 'space-linked', 'space-unlinked']);

/** Events of the space registry: shown to every caller. */
export const SPACE_REGISTRY_TYPES: readonly string[] = ['space-created', 'space-linked', 'space-unlinked'];
const SPACE_REGISTRY = new Set(SPACE_REGISTRY_TYPES);
export const isSpaceRegistryEvent = (type: string) => SPACE_REGISTRY.has(type);

const OBJECTS = ['row', 'group', 'workarea', 'space'] as const;

function objectOf(type: string): (typeof OBJECTS)[number] {
  if (type.startsWith('replacement-')) return 'group';
  if (type.startsWith('workarea-')) return 'workarea';
  if (SPACE_REGISTRY.has(type)) return 'space';
  return 'row';
}

/**
 * Each type's own fields that may leave the gate: identifiers, closed words and counts.
 * Content, findings, reasons and any words a person wrote never do (docs/protocol.md#events).
 */
const OWN_FIELDS: Record<string, readonly ServedField[]> = {
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
  // A question's route in closed words and a count; a referral's words stay inside.
  'question-routed': ['route', 'reason', 'crew', 'wait_minutes'],
  'question-wait-over': ['from', 'to', 'wait_minutes'],
  'question-referred': ['crew', 'wait_minutes'],
  'question-answered-by-crew': ['crew'],
};

/** Lists served as their length only: how many rows, not which (the rows' own events name them). */
const COUNTED_FIELDS: Record<string, Readonly<Record<string, ServedField>>> = {
  'replacement-proposed': { parent_ids: 'parents', child_ids: 'children' },
  'replacement-activated': { promoted: 'promoted', superseded: 'superseded' },
  'replacement-aborted': { evidence: 'evidence' },
  'sign-asked': { to: 'asked' },
};

/** What a row's events carry whenever the event data holds them. */
const ROW_FIELDS = ['trust_class', 'content_type', 'provisional'] as const satisfies readonly ServedField[];

/** Which event types carry a field, said in the field's description so an agent knows when to expect it. */
function carriers(field: ServedField): string {
  if ((ROW_FIELDS as readonly string[]).includes(field)) return 'events about a row, when it applies';
  const own = Object.entries(OWN_FIELDS).filter(([, fields]) => fields.includes(field)).map(([type]) => type);
  const counted = Object.entries(COUNTED_FIELDS).filter(([, names]) => Object.values(names).includes(field)).map(([type]) => `${type} (a count)`);
  return [...own, ...counted].join(', ');
}

/**
 * A served event's shape, made from the same tables servedEvent reads: the common fields
 * always, every other field optional and typed, nothing else.
 */
export const servedEventSchema = z.object({
  type: z.string(),
  object: z.enum(OBJECTS),
  artifact_id: z.string().nullable(),
  space: z.string().nullable(),
  workarea: z.string().nullable(),
  leaves: z.string().nullable(),
  enters: z.string().nullable(),
  by: z.string().nullable(),
  event_id: z.string(),
  ts: z.number().int(),
  ...Object.fromEntries(
    (Object.keys(SERVED_FIELD_TYPES) as ServedField[]).map((f) => [f, SERVED_FIELD_TYPES[f].optional().describe(`on ${carriers(f)}`)]),
  ),
});

/** A served event, typed by the schema the tool catalog serves (the MCP tests check answers against it). */
export type ServedEvent = z.output<typeof servedEventSchema>;

export function servedEvent(event: JournalEvent): ServedEvent {
  const d = event.data;
  const out: Record<string, unknown> = {
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
  for (const key of ROW_FIELDS) if (d[key] !== undefined) out[key] = d[key];
  for (const key of OWN_FIELDS[event.type] ?? []) if (d[key] !== undefined) out[key] = d[key];
  for (const [key, name] of Object.entries(COUNTED_FIELDS[event.type] ?? {})) {
    if (Array.isArray(d[key])) out[name] = (d[key] as unknown[]).length;
  }
  return out as ServedEvent;
}
