import { CATALOGUE, EVENT_TYPES, type EventType } from './catalogue.js';
import type { Served, ServedObject } from './declare.js';
import { UNWRITTEN_EVENTS, type UnwrittenType } from './unwritten.js';

/** A type readers may ask gv.events for: one the gate writes and serves, or one no act writes (refused by name). */
export type ServedType = { [T in EventType]: (typeof CATALOGUE)[T] extends { served: object } ? T : never }[EventType] | UnwrittenType;

/** How the catalogue says a written type is served, if it is. */
export const servedAs = (type: EventType): Served<Record<string, unknown>> | undefined =>
  (CATALOGUE[type] as { served?: Served<Record<string, unknown>> }).served;

const WRITTEN_SERVED = EVENT_TYPES.filter((t) => servedAs(t) !== undefined);
const UNWRITTEN = Object.keys(UNWRITTEN_EVENTS) as UnwrittenType[];

/** Every type gv.events may serve, in catalogue order, the unwritten ones last. */
export const SERVED_TYPES: readonly ServedType[] = [...WRITTEN_SERVED, ...UNWRITTEN] as ServedType[];

/** The served types no act of this build journals: a filter naming one is refused by name. */
export const NEVER_WRITTEN: ReadonlySet<string> = new Set(UNWRITTEN);

/** Why no act of this build journals `type` (one of NEVER_WRITTEN), in words a refusal can give. */
export const whyNeverWritten = (type: string): string => UNWRITTEN_EVENTS[type as UnwrittenType]?.why ?? 'no act of it journals one';

/** What a served type's events are about (a row, a group, a work area or a space). */
export const OBJECT_OF: ReadonlyMap<string, ServedObject> = new Map([
  ...WRITTEN_SERVED.map((t) => [t, servedAs(t)!.object] as const),
  ...UNWRITTEN.map((t) => [t, UNWRITTEN_EVENTS[t].object] as const),
]);

/** The served types whose events are about something other than a row: the space registry, groups and work areas. */
export const typesAbout = (object: ServedObject): readonly string[] => SERVED_TYPES.filter((t) => OBJECT_OF.get(t) === object);
