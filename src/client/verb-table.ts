import type { z } from 'zod';
import type { describeVerb, pingVerb } from '../verbs/liveness.js';
import type { ingestVerb } from '../verbs/writing/ingest.js';
import type { inventoryVerb, pendingVerb } from '../verbs/reading/inventory.js';
import type { nodeVerb } from '../verbs/reading/node.js';
import type { statusVerb, whyVerb } from '../verbs/reading/status.js';
import type { auditVerb } from '../verbs/reading/audit.js';
import type { auditChainVerb } from '../verbs/reading/audit-chain.js';
import type { checkpointVerb } from '../verbs/reading/checkpoint.js';
import type { publishVerb } from '../verbs/publishing/publish.js';
import type { collectionVerb } from '../verbs/publishing/collection.js';
import type { demoteVerb, promoteVerb, rejectVerb } from '../verbs/review/decisions.js';
import type { recallVerb } from '../verbs/reading/recall.js';
import type { eventsVerb } from '../verbs/reading/events.js';
import type { rebuildVerb } from '../verbs/admin/rebuild.js';
import type { eraseVerb } from '../verbs/admin/erase.js';
import type { grantVerb, grantsVerb } from '../verbs/admin/grants.js';
import type { keysVerb } from '../verbs/admin/keys.js';
import type { assertionKeyVerb } from '../verbs/admin/assertion-key.js';
import type { spaceCreateVerb, spacesVerb } from '../verbs/admin/spaces.js';
import type { relateVerb } from '../verbs/curation/relate.js';
import type { relationsVerb } from '../verbs/reading/relations.js';
import type { overrideTipVerb, tipVerb } from '../verbs/curation/tip.js';
import type { hideVerb } from '../verbs/curation/hide.js';
import type { rankVerb } from '../verbs/curation/rank.js';
import type { completeVerb, workareaRelateVerb, workareaVerb } from '../verbs/curation/workareas.js';
import type { lineageVerb } from '../verbs/reading/lineage.js';
import type { replacementProposeVerb } from '../verbs/curation/replacement-propose.js';
import type { replacementPrepareVerb } from '../verbs/curation/replacement-prepare.js';
import type { replacementActivateVerb } from '../verbs/curation/replacement-activate.js';
import type { replacementAbortVerb } from '../verbs/curation/replacement-abort.js';
import type { replacementsVerb } from '../verbs/curation/replacements.js';
import type { graphVerb } from '../verbs/reading/graph.js';
import type { healthVerb } from '../verbs/reading/health.js';
import type { outcomesPullVerb, submitDrainVerb, submitVerb } from '../verbs/organization/submit.js';
import type { peopleVerb, personAddVerb } from '../verbs/admin/people.js';
import type { challengeVerb, operatorProofVerb, verifyVerb } from '../verbs/admin/challenge.js';
import type { uploadVerb } from '../verbs/writing/upload.js';
import type { attachmentVerb } from '../verbs/reading/attachment.js';
import type { ingestBundleVerb } from '../verbs/writing/ingest-bundle.js';
import type { ingestMapVerb } from '../verbs/writing/ingest-map.js';
import type { approvalVerb } from '../verbs/review/approval.js';
import type { reviewVerb } from '../verbs/review/review-queue.js';
import type { gradePendingVerb, gradeVerb, reviewPendingVerb } from '../verbs/review/grade.js';
import type { reviewRunsVerb } from '../verbs/review/review-runs.js';
import type { backendCheckVerb, countersignStatusVerb, settlePendingVerb } from '../verbs/review/review-admin.js';
import type { signVerb } from '../verbs/review/sign.js';
import type { askToSignVerb, whoCanSignVerb } from '../verbs/review/asking.js';
import type { cancelVerb, reopenVerb } from '../verbs/review/lifecycle.js';
import type { awayVerb, backVerb } from '../verbs/review/away.js';
import type { commentRetractVerb, commentVerb, commentsVerb } from '../verbs/review/comments.js';
import type { deferVerb, engagementVerb } from '../verbs/review/engagement.js';
import type { recordsVerb } from '../verbs/review/records.js';
import type { scanPendingVerb, scanVerb } from '../verbs/review/scan.js';
import type { reconcileVerb } from '../verbs/admin/reconcile.js';
import type { queuesVerb } from '../verbs/admin/queues.js';
import type { semanticReviewVerb } from '../verbs/review/semantic-review.js';
import type { settingsSaveVerb, settingsValidateVerb, settingsVerb } from '../verbs/admin/settings.js';
import type { banVerb } from '../verbs/governance/ban.js';
import type { bansVerb } from '../verbs/governance/bans.js';
import type { questionVerb } from '../verbs/governance/question.js';
import type { runnerAssignVerb } from '../verbs/runners/runner-assign.js';
import type { runnerSetVerb } from '../verbs/runners/runner-set.js';
import type { runnerTokenSetVerb } from '../verbs/runners/runner-token-set.js';
import type { runnerHelloVerb } from '../verbs/runners/runner-hello.js';
import type { runnerKeysVerb } from '../verbs/runners/runner-keys.js';
import type { runnerTokenVerb } from '../verbs/runners/runner-token.js';
import type { runnersVerb } from '../verbs/runners/runners.js';
import type { policyVerb } from '../verbs/policy/policy.js';
import type { workVerb } from '../verbs/policy/work.js';
import type { crawlerPolicyVerb } from '../verbs/policy/crawler-policy.js';
import type { routedQuestionsVerb } from '../verbs/runners/routed-questions.js';

/** Each verb's declaration, by name: the client's param types come from the registry's own zod schemas. */
interface Verbs {
  'gv.ping': typeof pingVerb;
  'gv.describe': typeof describeVerb;
  'gv.ingest': typeof ingestVerb;
  'gv.inventory': typeof inventoryVerb;
  'gv.pending': typeof pendingVerb;
  'gv.node': typeof nodeVerb;
  'gv.status': typeof statusVerb;
  'gv.why': typeof whyVerb;
  'gv.audit': typeof auditVerb;
  'gv.promote': typeof promoteVerb;
  'gv.reject': typeof rejectVerb;
  'gv.demote': typeof demoteVerb;
  'gv.recall': typeof recallVerb;
  'gv.events': typeof eventsVerb;
  'gv.rebuild': typeof rebuildVerb;
  'gv.erase': typeof eraseVerb;
  'gv.audit_chain': typeof auditChainVerb;
  'gv.checkpoint': typeof checkpointVerb;
  'gv.publish': typeof publishVerb;
  'gv.collection': typeof collectionVerb;
  'gv.grant': typeof grantVerb;
  'gv.grants': typeof grantsVerb;
  'gv.keys': typeof keysVerb;
  'gv.assertion_key': typeof assertionKeyVerb;
  'gv.space_create': typeof spaceCreateVerb;
  'gv.spaces': typeof spacesVerb;
  'gv.relate': typeof relateVerb;
  'gv.relations': typeof relationsVerb;
  'gv.tip': typeof tipVerb;
  'gv.override_tip': typeof overrideTipVerb;
  'gv.hide': typeof hideVerb;
  'gv.rank': typeof rankVerb;
  'gv.workarea': typeof workareaVerb;
  'gv.complete': typeof completeVerb;
  'gv.workarea_relate': typeof workareaRelateVerb;
  'gv.lineage': typeof lineageVerb;
  'gv.replacement_propose': typeof replacementProposeVerb;
  'gv.replacement_prepare': typeof replacementPrepareVerb;
  'gv.replacement_activate': typeof replacementActivateVerb;
  'gv.replacement_abort': typeof replacementAbortVerb;
  'gv.replacements': typeof replacementsVerb;
  'gv.graph': typeof graphVerb;
  'gv.health': typeof healthVerb;
  'gv.submit': typeof submitVerb;
  'gv.submit_drain': typeof submitDrainVerb;
  'gv.outcomes_pull': typeof outcomesPullVerb;
  'gv.people': typeof peopleVerb;
  'gv.person_add': typeof personAddVerb;
  'gv.challenge': typeof challengeVerb;
  'gv.operator_proof': typeof operatorProofVerb;
  'gv.verify': typeof verifyVerb;
  'gv.upload': typeof uploadVerb;
  'gv.attachment': typeof attachmentVerb;
  'gv.ingest_bundle': typeof ingestBundleVerb;
  'gv.ingest_map': typeof ingestMapVerb;
  'gv.approval': typeof approvalVerb;
  'gv.review': typeof reviewVerb;
  'gv.grade': typeof gradeVerb;
  'gv.grade_pending': typeof gradePendingVerb;
  'gv.review_pending': typeof reviewPendingVerb;
  'gv.review_runs': typeof reviewRunsVerb;
  'gv.backend_check': typeof backendCheckVerb;
  'gv.settle_pending': typeof settlePendingVerb;
  'gv.countersign_status': typeof countersignStatusVerb;
  'gv.sign': typeof signVerb;
  'gv.who_can_sign': typeof whoCanSignVerb;
  'gv.ask_to_sign': typeof askToSignVerb;
  'gv.cancel': typeof cancelVerb;
  'gv.reopen': typeof reopenVerb;
  'gv.away': typeof awayVerb;
  'gv.back': typeof backVerb;
  'gv.comment': typeof commentVerb;
  'gv.comment_retract': typeof commentRetractVerb;
  'gv.comments': typeof commentsVerb;
  'gv.defer': typeof deferVerb;
  'gv.engagement': typeof engagementVerb;
  'gv.records': typeof recordsVerb;
  'gv.scan': typeof scanVerb;
  'gv.scan_pending': typeof scanPendingVerb;
  'gv.reconcile': typeof reconcileVerb;
  'gv.queues': typeof queuesVerb;
  'gv.semantic_review': typeof semanticReviewVerb;
  'gv.settings': typeof settingsVerb;
  'gv.settings_validate': typeof settingsValidateVerb;
  'gv.settings_save': typeof settingsSaveVerb;
  'gv.ban': typeof banVerb;
  'gv.bans': typeof bansVerb;
  'gv.question': typeof questionVerb;
  'gv.runner_assign': typeof runnerAssignVerb;
  'gv.runner_set': typeof runnerSetVerb;
  'gv.runner_token_set': typeof runnerTokenSetVerb;
  'gv.runner_hello': typeof runnerHelloVerb;
  'gv.runner_keys': typeof runnerKeysVerb;
  'gv.runner_token': typeof runnerTokenVerb;
  'gv.runners': typeof runnersVerb;
  'gv.policy': typeof policyVerb;
  'gv.work': typeof workVerb;
  'gv.crawler_policy': typeof crawlerPolicyVerb;
  'gv.routed_questions': typeof routedQuestionsVerb;
}

export type VerbName = keyof Verbs;
export type VerbParams<M extends VerbName> = Verbs[M] extends { params: infer S extends z.ZodType } ? z.input<S> : never;
export type VerbRole = 'reader' | 'agent' | 'reviewer' | 'admin' | 'runner';

/**
 * Each verb's least role, for the client's scopes (checked before any I/O). The client
 * carries this small table instead of the registry itself, so it loads no server code;
 * test/client/verb-table.test.ts proves it equals the registry.
 */
export const VERB_ROLES: Record<VerbName, VerbRole> = {
  'gv.ping': 'reader',
  'gv.describe': 'reader',
  'gv.ingest': 'agent',
  'gv.inventory': 'reader',
  'gv.pending': 'reader',
  'gv.node': 'reader',
  'gv.status': 'reader',
  'gv.why': 'reader',
  'gv.audit': 'reader',
  'gv.promote': 'reviewer',
  'gv.reject': 'reviewer',
  'gv.demote': 'reviewer',
  'gv.recall': 'reader',
  'gv.events': 'reader',
  'gv.rebuild': 'admin',
  'gv.erase': 'admin',
  'gv.audit_chain': 'admin',
  'gv.checkpoint': 'reader',
  'gv.publish': 'admin',
  'gv.collection': 'reader',
  'gv.grant': 'admin',
  'gv.grants': 'admin',
  'gv.keys': 'reviewer',
  'gv.assertion_key': 'agent',
  'gv.space_create': 'admin',
  'gv.spaces': 'reader',
  'gv.relate': 'reviewer',
  'gv.relations': 'reader',
  'gv.tip': 'reader',
  'gv.override_tip': 'reviewer',
  'gv.hide': 'reviewer',
  'gv.rank': 'agent',
  'gv.workarea': 'reader',
  'gv.complete': 'agent',
  'gv.workarea_relate': 'agent',
  'gv.lineage': 'reader',
  'gv.replacement_propose': 'reviewer',
  'gv.replacement_prepare': 'reviewer',
  'gv.replacement_activate': 'reviewer',
  'gv.replacement_abort': 'reviewer',
  'gv.replacements': 'reviewer',
  'gv.graph': 'reader',
  'gv.health': 'reviewer',
  'gv.submit': 'reviewer',
  'gv.submit_drain': 'admin',
  'gv.outcomes_pull': 'admin',
  'gv.people': 'admin',
  'gv.person_add': 'admin',
  'gv.challenge': 'reader',
  'gv.operator_proof': 'admin',
  'gv.verify': 'admin',
  'gv.upload': 'agent',
  'gv.attachment': 'reader',
  'gv.ingest_bundle': 'agent',
  'gv.ingest_map': 'agent',
  'gv.approval': 'reader',
  'gv.review': 'reviewer',
  'gv.grade': 'reviewer',
  'gv.grade_pending': 'reviewer',
  'gv.review_pending': 'reviewer',
  'gv.review_runs': 'reader',
  'gv.backend_check': 'admin',
  'gv.settle_pending': 'reviewer',
  'gv.countersign_status': 'reader',
  'gv.sign': 'reviewer',
  'gv.who_can_sign': 'reader',
  'gv.ask_to_sign': 'agent',
  'gv.cancel': 'reader',
  'gv.reopen': 'reviewer',
  'gv.away': 'admin',
  'gv.back': 'admin',
  'gv.comment': 'agent',
  'gv.comment_retract': 'agent',
  'gv.comments': 'reader',
  'gv.defer': 'agent',
  'gv.engagement': 'reader',
  'gv.records': 'reviewer',
  'gv.scan': 'reviewer',
  'gv.scan_pending': 'reviewer',
  'gv.reconcile': 'admin',
  'gv.queues': 'reviewer',
  'gv.semantic_review': 'reviewer',
  'gv.settings': 'admin',
  'gv.settings_validate': 'admin',
  'gv.settings_save': 'admin',
  'gv.ban': 'admin',
  'gv.bans': 'reader',
  'gv.question': 'reader',
  'gv.runner_assign': 'admin',
  'gv.runner_set': 'admin',
  'gv.runner_token_set': 'admin',
  'gv.runner_hello': 'runner',
  'gv.runner_keys': 'runner',
  'gv.runner_token': 'runner',
  'gv.runners': 'reviewer',
  'gv.policy': 'reader',
  'gv.work': 'agent',
  'gv.crawler_policy': 'agent',
  'gv.routed_questions': 'agent',
};

/** The tools that write (the rest only read), checked against the tool table by the same test. */
export const TOOL_WRITES = ['gate.remember', 'gate.complete', 'gate.workarea_relate'] as const;
export const CLIENT_TOOLS = [
  'gate.remember', 'gate.recall', 'gate.status', 'gate.why', 'gate.tip', 'gate.pending', 'gate.spaces',
  'gate.workarea', 'gate.complete', 'gate.workarea_relate', 'gate.lineage',
] as const;
export type ToolName = (typeof CLIENT_TOOLS)[number];
