import type { ViewName } from '../journal/catalogue/catalogue.js';
import type { View } from './define-view.js';
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

/**
 * Every view of the gate, each declared once beside its reducer (`defineView`). Their tables
 * (`createProjectionTables`), the digest and the rebuild that compares it (`digestQueries`),
 * the drop when the views' shape changes (`dropViews`), the reducers folding each event
 * (`Projections`) and the store's read models (`makeReadModels`, read-models.ts) all come
 * from this list, the one list of views: the catalogue keeps none, its declarations name the
 * views that fold them (docs/architecture.md, "Adding a view"). Several views may fold one
 * event, in this order.
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
 * `T` when it is empty: the build fails where it is not, and its error names what is in it
 * ("Type '"artifact"' does not satisfy the constraint 'never'").
 */
type Empty<T extends never> = T;

/**
 * The names the catalogue's declarations fold by that no listed view carries: none. The
 * journal, below the views, cannot import this list, so its `folds` name views by plain
 * names, and this is where a misspelt or unlisted one stops the build (the other way, a view
 * whose name no declaration folds by, `defineView` refuses). A catalogue whose `folds` were
 * widened to `string` fails here too. Used nowhere: the compiler checks it where it is written.
 */
type FoldedByNoListedView = Empty<Exclude<ViewName, ListedView['name']>>;
