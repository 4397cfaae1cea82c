import type { ReadModelFactories, ReadModelFactory, ReadModelSource } from './define-view.js';
import { VIEW_LIST, type ListedView } from './view-list.js';
import { ContentReferences } from './content-references.js';
import { LineageReads } from './lineage-reads.js';
import { GraphReads } from './graph-reads.js';
import { VectorCodeReads } from './vector-code-reads.js';
import { JournalReads } from './journal-reads.js';

// The store's read models, made from the view list (view-list.ts, which names the views and
// nothing else): each view's `reads`, and the few across views declared here.

/**
 * The store's read models that no one view owns: each joins several views, or reads the
 * journal table or an index kept beside the views. Made as a view's own are, by name.
 */
export const READS_ACROSS_VIEWS = {
  /** Who still names stored bytes (an erasure removes only what no live row names). */
  contentReferences: ({ db }) => new ContentReferences(db),
  /** A space's rows by work area, as gv.lineage draws them. */
  lineage: ({ db }) => new LineageReads(db),
  /** The graph's rows with their labels (gv.graph). */
  graph: ({ db }) => new GraphReads(db),
  /** Which rows the vector index holds a code for. */
  vectorCodes: ({ db }) => new VectorCodeReads(db),
  /**
   * The journal table read as it stands, for what no view keeps: a row's events, an event by
   * seq or id, signed events verbatim, gv.events' pages, org outcomes, the chain walked.
   */
  journalReads: ({ db }) => new JournalReads(db),
} as const satisfies ReadModelFactories;

/** What each factory of a record makes, under the same name (its doc comment kept). */
type Made<R> = { readonly [K in keyof R]: R[K] extends (source: ReadModelSource) => infer T ? T : never };

/** One intersection of the members of a union of records. */
type Joined<U> = (U extends unknown ? (members: U) => void : never) extends (members: infer I) => void ? I : never;

/** Every read model of the store, by name: each view's `reads`, and those across views. */
export type ReadModels = Joined<Made<ListedView['reads']>> & Made<typeof READS_ACROSS_VIEWS>;

/** Every read model's factory by its name, from the list: the store's members. */
export function readModelFactories(): ReadonlyMap<string, ReadModelFactory> {
  const factories = new Map<string, ReadModelFactory>();
  const declared: ReadModelFactories[] = [...VIEW_LIST.map((view) => view.reads), READS_ACROSS_VIEWS];
  for (const reads of declared) {
    for (const [name, factory] of Object.entries(reads)) {
      if (factories.has(name)) throw new Error(`two read models are named ${name}`);
      factories.set(name, factory);
    }
  }
  return factories;
}

/** Every read model of the store, made over `source`. */
export function makeReadModels(source: ReadModelSource): ReadModels {
  return Object.fromEntries([...readModelFactories()].map(([name, make]) => [name, make(source)])) as ReadModels;
}
