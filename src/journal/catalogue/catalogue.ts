import type { z } from 'zod';
import type { JournalEvent } from '../../forms/event.js';
import { ACCESS_EVENTS } from './access.js';
import { CURATION_EVENTS } from './curation.js';
import type { EventDeclaration } from './declare.js';
import { DEPLOYMENT_EVENTS } from './deployment.js';
import { ORGANIZATION_EVENTS } from './organization.js';
import { QUESTION_EVENTS } from './questions.js';
import { READING_EVENTS } from './reading.js';
import { REVIEW_EVENTS } from './review.js';
import { ROW_EVENTS } from './rows.js';
import { RUNNER_EVENTS } from './runners.js';

/**
 * Every event type the gate writes, each declared once: what its data carries, which part
 * writes it, which views fold it and whether readers are served it (docs/architecture.md,
 * "Adding an event type"). The journal's append, the views' `handles`, the served lists
 * and the memo lists all come from here; src/journal/catalogue/unwritten.ts names the served
 * types no act writes.
 */
export const CATALOGUE = {
  ...ROW_EVENTS,
  ...REVIEW_EVENTS,
  ...CURATION_EVENTS,
  ...QUESTION_EVENTS,
  ...ORGANIZATION_EVENTS,
  ...ACCESS_EVENTS,
  ...RUNNER_EVENTS,
  ...READING_EVENTS,
  ...DEPLOYMENT_EVENTS,
} satisfies Record<string, EventDeclaration>;

type Catalogue = typeof CATALOGUE;

/** A type the gate writes. */
export type EventType = keyof Catalogue;

/** What an event of type T carries, as its declaration's schema says. */
export type EventData<T extends EventType> = z.infer<Catalogue[T]['data']>;

/** One event to append: its type with the data that type carries (a wrong pair does not compile). */
export type GateEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

/** A journal event of one of the types T, its data typed by the catalogue. */
export type JournalEventOf<T extends EventType = EventType> = {
  [K in T]: Omit<JournalEvent, 'type' | 'data'> & { type: K; data: EventData<K> };
}[T];

/**
 * A view's name, as the declarations name the views that fold them (`folds`): the catalogue
 * keeps no list of views apart, so a view is named here once a declaration names it.
 * src/projections/view-list.ts holds these names to exactly the listed views' (the log tree
 * apart, which folds every type and is named by none).
 */
export type ViewName = { [T in EventType]: Catalogue[T]['folds'][number] }[EventType];

/** The types view V folds, as the catalogue declares them. */
export type FoldedBy<V extends ViewName> = {
  [T in EventType]: V extends Catalogue[T]['folds'][number] ? T : never;
}[EventType];

export const EVENT_TYPES = Object.keys(CATALOGUE) as EventType[];

const declared = new Set<string>(EVENT_TYPES);
export const isEventType = (type: string): type is EventType => declared.has(type);

/** The declaration of one type (widened: its schema as a schema, its views as names). */
export const declarationOf = (type: EventType): EventDeclaration => CATALOGUE[type];

/** The types a view folds, in catalogue order: its `handles` (defineView). */
export function typesFoldedBy<V extends ViewName>(view: V): readonly FoldedBy<V>[] {
  return EVENT_TYPES.filter((t) => declarationOf(t).folds.includes(view)) as FoldedBy<V>[];
}
