import type { Verb } from './define-verb.js';
import { describeVerb, pingVerb } from './liveness.js';
import { ingestVerb } from './writing/ingest.js';
import { inventoryVerb, pendingVerb } from './reading/inventory.js';
import { nodeVerb } from './reading/node.js';
import { statusVerb, whyVerb } from './reading/status.js';
import { auditVerb } from './reading/audit.js';
import { auditChainVerb } from './reading/audit-chain.js';
import { checkpointVerb } from './reading/checkpoint.js';
import { publishVerb } from './publishing/publish.js';
import { collectionVerb } from './publishing/collection.js';
import { demoteVerb, promoteVerb, rejectVerb } from './review/decisions.js';
import { recallVerb } from './reading/recall.js';
import { eventsVerb } from './reading/events.js';
import { rebuildVerb } from './admin/rebuild.js';
import { eraseVerb } from './admin/erase.js';
import { grantVerb, grantsVerb } from './admin/grants.js';
import { keysVerb } from './admin/keys.js';
import { assertionKeyVerb } from './admin/assertion-key.js';
import { spaceCreateVerb, spacesVerb } from './admin/spaces.js';
import { relateVerb } from './curation/relate.js';
import { relationsVerb } from './reading/relations.js';
import { overrideTipVerb, tipVerb } from './curation/tip.js';
import { hideVerb } from './curation/hide.js';
import { rankVerb } from './curation/rank.js';
import { completeVerb, workareaRelateVerb, workareaVerb } from './curation/workareas.js';
import { lineageVerb } from './reading/lineage.js';
import { replacementProposeVerb } from './curation/replacement-propose.js';
import { replacementPrepareVerb } from './curation/replacement-prepare.js';
import { replacementActivateVerb } from './curation/replacement-activate.js';
import { replacementAbortVerb } from './curation/replacement-abort.js';
import { replacementsVerb } from './curation/replacements.js';
import { graphVerb } from './reading/graph.js';
import { healthVerb } from './reading/health.js';
import { outcomesPullVerb, submitDrainVerb, submitVerb } from './organization/submit.js';
import { orgJoinVerb } from './organization/org-join.js';
import { peopleVerb, personAddVerb } from './admin/people.js';
import { passwordChangeVerb, personResetVerb } from './admin/passwords.js';
import { challengeVerb, operatorProofVerb, verifyVerb } from './admin/challenge.js';
import { uploadVerb } from './writing/upload.js';
import { attachmentVerb } from './reading/attachment.js';
import { ingestBundleVerb } from './writing/ingest-bundle.js';
import { ingestMapVerb } from './writing/ingest-map.js';
import { gradePendingVerb, gradeVerb, reviewPendingVerb } from './review/grade.js';
import { reviewRunsVerb } from './review/review-runs.js';
import { backendCheckVerb, countersignStatusVerb, settlePendingVerb } from './review/review-admin.js';
import { approvalVerb } from './review/approval.js';
import { signVerb } from './review/sign.js';
import { cancelVerb, reopenVerb } from './review/lifecycle.js';
import { addEvidenceVerb, requestEvidenceVerb } from './review/evidence.js';
import { askToSignVerb, whoCanSignVerb } from './review/asking.js';
import { namesVerb } from './reading/names.js';
import { awayVerb, backVerb } from './review/away.js';
import { commentRetractVerb, commentVerb, commentsVerb } from './review/comments.js';
import { reviewVerb } from './review/review-queue.js';
import { deferVerb, engagementVerb } from './review/engagement.js';
import { recordsVerb } from './review/records.js';
import { scanPendingVerb, scanVerb } from './review/scan.js';
import { reconcileVerb } from './admin/reconcile.js';
import { queuesVerb } from './admin/queues.js';
import { semanticReviewVerb } from './review/semantic-review.js';
import { settingsSaveVerb, settingsValidateVerb, settingsVerb } from './admin/settings.js';
import { banVerb } from './governance/ban.js';
import { bansVerb } from './governance/bans.js';
import { questionVerb } from './governance/question.js';
import { runnerAssignVerb } from './runners/runner-assign.js';
import { runnerSetVerb } from './runners/runner-set.js';
import { runnerTokenSetVerb } from './runners/runner-token-set.js';
import { runnerHelloVerb } from './runners/runner-hello.js';
import { runnerKeysVerb } from './runners/runner-keys.js';
import { runnerTokenVerb } from './runners/runner-token.js';
import { runnersVerb } from './runners/runners.js';
import { policyVerb } from './policy/policy.js';
import { workVerb } from './policy/work.js';
import { crawlerPolicyVerb } from './policy/crawler-policy.js';
import { routedQuestionsVerb } from './runners/routed-questions.js';

/**
 * The verbs as declared, each with its name and answer in its type (VerbAnswer reads them);
 * VERBS below is the same list, as the dispatcher and catalogs take it.
 */
export const DECLARED_VERBS = [
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
  eraseVerb,
  auditChainVerb,
  checkpointVerb,
  publishVerb,
  collectionVerb,
  grantVerb,
  grantsVerb,
  keysVerb,
  assertionKeyVerb,
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
  orgJoinVerb,
  peopleVerb,
  personAddVerb,
  personResetVerb,
  passwordChangeVerb,
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
  namesVerb,
  askToSignVerb,
  cancelVerb,
  reopenVerb,
  requestEvidenceVerb,
  addEvidenceVerb,
  awayVerb,
  backVerb,
  commentVerb,
  commentRetractVerb,
  commentsVerb,
  deferVerb,
  engagementVerb,
  recordsVerb,
  scanVerb,
  scanPendingVerb,
  reconcileVerb,
  queuesVerb,
  semanticReviewVerb,
  settingsVerb,
  settingsValidateVerb,
  settingsSaveVerb,
  banVerb,
  bansVerb,
  questionVerb,
  runnerAssignVerb,
  runnerSetVerb,
  runnerTokenSetVerb,
  runnerHelloVerb,
  runnerKeysVerb,
  runnerTokenVerb,
  runnersVerb,
  policyVerb,
  workVerb,
  crawlerPolicyVerb,
  routedQuestionsVerb,
] as const;

/** The one registry: gv.describe, and later the OpenAPI and tool catalogs, are generated from it. */
export const VERBS: readonly Verb<any>[] = DECLARED_VERBS;

/** The registry by verb name: the dispatcher's lookup. */
export const VERBS_BY_NAME: ReadonlyMap<string, Verb> = new Map(VERBS.map((v) => [v.name, v as Verb]));
