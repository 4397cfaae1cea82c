import type { ReadModelFactories, ReadModelFactory, ReadModelSource, View } from './define-view.js';
import { artifactView } from './artifacts.js';
import { spaceView } from './spaces.js';
import { grantView } from './grants.js';
import { apiKeyView } from './api-keys.js';
import { relationView } from './relations.js';
import { rankView } from './ranks.js';
import { workareaView } from './workareas.js';
import { replacementGroupView } from './replacement-groups.js';
import { submissionView } from './submissions.js';
import { reviewView } from './review.js';
import { commentView } from './comments.js';
import { awayView } from './away.js';
import { peopleView } from './people.js';
import { signinSessionView } from './signin-sessions.js';
import { attachmentView } from './attachments.js';
import { bodyReadView } from './body-reads.js';
import { banView } from './bans.js';
import { runnerView } from './runners.js';
import { questionView } from './questions.js';
import { logTreeView } from './log-tree.js';
import { collectionView } from './collections.js';
import { detectionView } from './detections.js';
import { deploymentKeyView } from './deployment-keys.js';
import { ContentReferences } from './content-references.js';
import { LineageReads } from './lineage-reads.js';
import { GraphReads } from './graph-reads.js';
import { VectorCodeReads } from './vector-code-reads.js';
import { JournalReads } from './journal-reads.js';

/**
 * Every view of the gate, each declared once beside its reducer (`defineView`). Their tables
 * (`createProjectionTables`), the digest and the rebuild that compares it (`digestQueries`),
 * the drop when the views' shape changes (`dropViews`), the reducers folding each event
 * (`Projections`) and the store's read models (`Store`) all come from this list
 * (docs/architecture.md, "Adding a view"). Several views may fold one event, in this order.
 */
export const VIEW_LIST = [
  artifactView,
  spaceView,
  grantView,
  apiKeyView,
  relationView,
  rankView,
  workareaView,
  replacementGroupView,
  submissionView,
  reviewView,
  commentView,
  awayView,
  peopleView,
  signinSessionView,
  attachmentView,
  bodyReadView,
  banView,
  runnerView,
  questionView,
  logTreeView,
  collectionView,
  detectionView,
  deploymentKeyView,
] as const satisfies readonly View[];

/** A declared view, any of the list. */
export type ListedView = (typeof VIEW_LIST)[number];

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
