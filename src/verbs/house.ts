import type { AccessPart } from '../access/access-part.js';
import type { AuthPart } from '../auth/auth-part.js';
import type { Clock } from '../clock.js';
import type { GateConfig } from '../config/keys.js';
import type { Deployment } from '../journal/deployment.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { Log } from '../log.js';
import type { RecallPart } from '../recall/recall-part.js';
import type { ReviewPart } from '../review/review-part.js';
import type { Store } from '../store/store.js';
import type { LongReads } from '../long-reads/long-reads.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';

/**
 * The parts of the house a verb may enter, each an interface owned by its layer and built
 * by the root (src/gate.ts). A verb is handed the parts its `uses` names (VerbContext); a
 * helper takes a Pick of them, so its signature says which rooms it uses.
 */
export interface House {
  readonly store: Store;
  readonly access: AccessPart;
  readonly auth: AuthPart;
  readonly recall: RecallPart;
  readonly pipeline: PipelinePart;
  readonly review: ReviewPart;
  /** Reads that walk the journal or a view: chunks on turns, over a snapshot, within each identity's budget. */
  readonly reads: LongReads;
  readonly crews: CrewsPart;
  readonly deployment: Deployment;
  readonly config: GateConfig;
  readonly clock: Clock;
  readonly log: Log;
}

/**
 * The parts by name, in House's order: the columns of the verb-by-part table the registry prints
 * into docs/architecture.md (src/verbs/verb-parts-table.ts). `satisfies` keeps out a name House
 * lacks; test/architecture/verb-uses.test.ts fails while one House has is missing here.
 */
export const HOUSE_PARTS = [
  'store',
  'access',
  'auth',
  'recall',
  'pipeline',
  'review',
  'reads',
  'crews',
  'deployment',
  'config',
  'clock',
  'log',
] as const satisfies readonly (keyof House)[];
