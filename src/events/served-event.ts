import { z } from 'zod';
import type { JournalEvent } from '../forms/event.js';
import { SERVED_FIELD_TYPES, type ServedField } from './served-event-fields.js';
import { EVENT_TYPES } from '../journal/catalogue/catalogue.js';
import { NEVER_WRITTEN, OBJECT_OF, SERVED_TYPES, servedAs, typesAbout, whyNeverWritten } from '../journal/catalogue/served-types.js';

/** Event types served by gv.events (docs/protocol.md#events), as the catalogue declares them (src/journal/catalogue/); every other type stays inside. */
export { NEVER_WRITTEN, SERVED_TYPES, whyNeverWritten };

const SERVED = new Set<string>(SERVED_TYPES);
export const isServedType = (type: string) => SERVED.has(type);

/** Events of the space registry: shown to every caller. */
export const SPACE_REGISTRY_TYPES: readonly string[] = typesAbout('space');
const SPACE_REGISTRY = new Set(SPACE_REGISTRY_TYPES);
export const isSpaceRegistryEvent = (type: string) => SPACE_REGISTRY.has(type);

const OBJECTS = ['row', 'group', 'workarea', 'space'] as const;

/** What a served type's events are about, as its declaration says: a row, a replacement group, a work area or a space. */
export const servedObjectOf = (type: string): (typeof OBJECTS)[number] => OBJECT_OF.get(type) ?? 'row';

/** The served types whose events their group decides (a work area's, a replacement group's) rather than one row. */
export const GROUP_DECIDED_TYPES: readonly string[] = [...typesAbout('workarea'), ...typesAbout('group')];

/**
 * Each type's own fields that may leave the gate (identifiers, closed words and counts), and
 * its lists served as counts, as the catalogue declares them. Content, findings, reasons and
 * any words a person wrote never leave (docs/protocol.md#events).
 */
const OWN_FIELDS: Readonly<Record<string, readonly ServedField[]>> = Object.fromEntries(
  // A declared field SERVED_FIELD_TYPES does not type is refused by test/journal/event-catalogue.test.ts.
  EVENT_TYPES.flatMap((t) => (servedAs(t) === undefined ? [] : [[t, servedAs(t)!.fields as readonly ServedField[]]])),
);
const COUNTED_FIELDS: Readonly<Record<string, Readonly<Record<string, ServedField>>>> = Object.fromEntries(
  EVENT_TYPES.flatMap((t) => (servedAs(t)?.counted === undefined ? [] : [[t, servedAs(t)!.counted as Record<string, ServedField>]])),
);

/** What a row's events carry whenever the event data holds them. */
const ROW_FIELDS = ['trust_class', 'content_type', 'provisional'] as const satisfies readonly ServedField[];

/**
 * Which event types carry a field, said in the field's description so an agent knows when to
 * expect it; in name order, so where a declaration sits in the catalogue changes no description.
 */
function carriers(field: ServedField): string {
  if ((ROW_FIELDS as readonly string[]).includes(field)) return 'events about a row, when it applies';
  const own = Object.entries(OWN_FIELDS).filter(([, fields]) => fields.includes(field)).map(([type]) => type);
  const counted = Object.entries(COUNTED_FIELDS).filter(([, names]) => Object.values(names).includes(field)).map(([type]) => `${type} (a count)`);
  return [...own.sort(), ...counted.sort()].join(', ');
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
    object: servedObjectOf(event.type),
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
