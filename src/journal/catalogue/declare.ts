import type { z } from 'zod';

/** A schema of an event's data: an object (or a union of objects) of JSON values. */
export type EventSchema = z.ZodType<Record<string, unknown>>;

/** What a served event is about, as gv.events names it: a row, a replacement group, a work area or a space. */
export type ServedObject = 'row' | 'group' | 'workarea' | 'space';

/** The fields any one form of an event's data may carry (a union's members each have their own). */
type FieldOf<Data> = Data extends unknown ? keyof Data & string : never;

/** How gv.events serves a type: what it is about, its own fields that may leave the gate, and lists served as counts. */
export interface Served<Data> {
  readonly object: ServedObject;
  /** Identifiers, closed words and counts only; content, findings and a person's words never leave (docs/protocol.md#events). */
  readonly fields: readonly FieldOf<Data>[];
  /** Lists served as their length only, under another name: how many rows, not which. */
  readonly counted?: Readonly<Partial<Record<FieldOf<Data>, string>>>;
}

/**
 * One event type the gate writes. `owner`: the folders whose code appends it (the catalogue
 * test finds the type named there); `data`: what its event carries, closed (a field not
 * declared fails the check tests run, GATE_CHECK_EVENTS); `folds`: the names of the views
 * that fold it; `served`: present when gv.events serves it to readers, absent when it stays
 * inside. The journal, below the views, holds no list of them: a name in `folds` is the
 * name a `defineView` declares, and the view list (src/projections/view-list.ts) does not
 * compile while a name the catalogue folds by is no listed view's, nor `defineView` while a
 * view's name is none the catalogue folds by (docs/architecture.md, "Adding a view").
 */
export interface EventDeclaration<S extends EventSchema = EventSchema> {
  readonly owner: readonly string[];
  readonly data: S;
  readonly folds: readonly string[];
  readonly served?: Served<z.infer<S>>;
}

/**
 * A declaration with its literal types kept (its schema, the names of the views it names),
 * so the catalogue's types derive from it, the views' names among them (`ViewName`,
 * catalogue.ts); a served field must be a field of its data.
 */
export function declare<S extends EventSchema, const V extends readonly string[]>(d: {
  readonly owner: readonly string[];
  readonly data: S;
  readonly folds: V;
  readonly served?: Served<z.infer<S>>;
}) {
  return d;
}

/**
 * A type readers may ask gv.events for that no act of this build writes: a filter naming it
 * is refused by name, rather than answered with an empty page that would say nothing happened.
 */
export interface UnwrittenDeclaration {
  readonly object: ServedObject;
  readonly why: string;
}
