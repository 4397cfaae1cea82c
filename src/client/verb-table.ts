import type { VerbName, VerbParams } from '../verbs/verb-types.js';

/**
 * The verbs' names and params, typed from the registry's own declarations (src/verbs/verb-types.ts):
 * the list of verbs is written once, in src/verbs/registry.ts. Type imports only: the client
 * loads no server code.
 */
export type { VerbName, VerbParams };
export type VerbRole = 'reader' | 'agent' | 'reviewer' | 'admin' | 'runner';

/**
 * The deciding verbs: each records a decision on a row or settles its fate (promote, reject,
 * demote, a send-back for evidence, a person's signature, a reopening, a replacement group's
 * activation, the deployment's promotions in an auto space). Spec 3 rule 3: no client scope sends them, whatever the key
 * could do; a person decides in the console or with `gate sign`, a reviewer program through
 * ReviewerClient, which is named for that so no decision is sent by accident.
 */
export const DECIDING_VERBS: ReadonlySet<VerbName> = new Set<VerbName>([
  'gv.promote',
  'gv.reject',
  'gv.demote',
  'gv.request_evidence',
  'gv.sign',
  'gv.reopen',
  'gv.replacement_activate',
  'gv.settle_pending',
]);

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
  'gv.org_join': 'admin',
  'gv.people': 'admin',
  'gv.person_add': 'admin',
  'gv.person_reset': 'admin',
  'gv.password_change': 'reader',
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
  'gv.names': 'reviewer',
  'gv.ask_to_sign': 'agent',
  'gv.cancel': 'reader',
  'gv.reopen': 'reviewer',
  'gv.request_evidence': 'reviewer',
  'gv.add_evidence': 'agent',
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
