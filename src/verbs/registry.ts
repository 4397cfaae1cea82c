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
import { relateVerb } from './relate.js';
import { relationsVerb } from './relations.js';
import { overrideTipVerb, tipVerb } from './tip.js';
import { hideVerb } from './hide.js';
import { rankVerb } from './rank.js';
import { completeVerb, workareaRelateVerb, workareaVerb } from './workareas.js';
import { lineageVerb } from './lineage.js';
import { replacementProposeVerb } from './replacement-propose.js';
import { replacementPrepareVerb } from './replacement-prepare.js';
import { replacementActivateVerb } from './replacement-activate.js';
import { replacementAbortVerb } from './replacement-abort.js';
import { replacementsVerb } from './replacements.js';
import { graphVerb } from './graph.js';
import { healthVerb } from './health.js';
import { outcomesPullVerb, submitDrainVerb, submitVerb } from './submit.js';
import { peopleVerb, personAddVerb } from './people.js';
import { challengeVerb, operatorProofVerb, verifyVerb } from './challenge.js';
import { uploadVerb } from './upload.js';
import { attachmentVerb } from './attachment.js';
import { ingestBundleVerb } from './ingest-bundle.js';
import { ingestMapVerb } from './ingest-map.js';
import { gradePendingVerb, gradeVerb, reviewPendingVerb } from './grade.js';
import { reviewRunsVerb } from './review-runs.js';
import { backendCheckVerb, countersignStatusVerb, settlePendingVerb } from './review-admin.js';
import { approvalVerb } from './approval.js';
import { signVerb } from './sign.js';
import { cancelVerb, reopenVerb } from './lifecycle.js';
import { askToSignVerb, whoCanSignVerb } from './asking.js';
import { awayVerb, backVerb } from './away.js';
import { commentRetractVerb, commentVerb, commentsVerb } from './comments.js';
import { reviewVerb } from './review-queue.js';
import { deferVerb, engagementVerb } from './engagement.js';

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
  relateVerb,
  relationsVerb,
  tipVerb,
  overrideTipVerb,
  hideVerb,
  rankVerb,
  workareaVerb,
  completeVerb,
  workareaRelateVerb,
  lineageVerb,
  replacementProposeVerb,
  replacementPrepareVerb,
  replacementActivateVerb,
  replacementAbortVerb,
  replacementsVerb,
  graphVerb,
  healthVerb,
  submitVerb,
  submitDrainVerb,
  outcomesPullVerb,
  peopleVerb,
  personAddVerb,
  challengeVerb,
  operatorProofVerb,
  verifyVerb,
  uploadVerb,
  attachmentVerb,
  ingestBundleVerb,
  ingestMapVerb,
  approvalVerb,
  reviewVerb,
  gradeVerb,
  gradePendingVerb,
  reviewPendingVerb,
  reviewRunsVerb,
  backendCheckVerb,
  settlePendingVerb,
  countersignStatusVerb,
  signVerb,
  whoCanSignVerb,
  askToSignVerb,
  cancelVerb,
  reopenVerb,
  awayVerb,
  backVerb,
  commentVerb,
  commentRetractVerb,
  commentsVerb,
  deferVerb,
  engagementVerb,
];
