import type { Verb } from './define-verb.js';
import { describeVerb, pingVerb } from './liveness.js';
import { ingestVerb } from './ingest.js';
import { inventoryVerb, pendingVerb } from './inventory.js';
import { nodeVerb } from './node.js';
import { statusVerb, whyVerb } from './status.js';
import { auditVerb } from './audit.js';
import { auditChainVerb } from './audit-chain.js';
import { demoteVerb, promoteVerb, rejectVerb } from './decisions.js';
import { recallVerb } from './recall.js';
import { eventsVerb } from './events.js';
import { rebuildVerb } from './rebuild.js';
import { grantVerb, grantsVerb } from './grants.js';
import { keysVerb } from './keys.js';
import { spaceCreateVerb, spacesVerb } from './spaces.js';

/** The one registry: gv.describe, and later the OpenAPI and tool catalogs, are generated from it. */
export const VERBS: readonly Verb<any>[] = [
  pingVerb,
  describeVerb,
  ingestVerb,
  inventoryVerb,
  pendingVerb,
  nodeVerb,
  statusVerb,
  whyVerb,
  auditVerb,
  promoteVerb,
  rejectVerb,
  demoteVerb,
  recallVerb,
  eventsVerb,
  rebuildVerb,
  auditChainVerb,
  grantVerb,
  grantsVerb,
  keysVerb,
  spaceCreateVerb,
  spacesVerb,
];
