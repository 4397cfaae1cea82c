import { z } from 'zod';
import { writeFileAtomic } from '../../config/atomic-write.js';
import { GateClientError, OrgDoorClient } from '@gate/client';
import { API_KEY_PATTERN } from '../../credentials/api-keys.js';
import { invalidParams, lifecycle } from '../../gate-error.js';
import { pinnedOrg } from '../../submission/outcome-pull.js';
import { defineVerb } from '../define-verb.js';
import { proofParam, requireOperatorProof } from '../operator-proof.js';
import { checkChanges } from '../admin/settings-change.js';
import { saveCheckedSettings } from '../admin/settings-save.js';

/** A refusal of the join, with why: nothing was written. */
const notJoined = (message: string, reason: string) => lifecycle(`gv.org_join: ${message}; nothing was saved`, reason);

/**
 * Asks the organization, with the key, whether it knows this gate: GET /health answers as an
 * organization gate (its key, which must be the one this gate pinned if it pinned one), and
 * GET /outcomes with the key answers 200 naming this gate as the key's member. Answers the
 * org's deployment id.
 */
async function askTheOrg(door: OrgDoorClient, self: string, pinned: string | null): Promise<{ org: string; trusted_issuers: string[] }> {
  let health;
  try {
    health = await door.health();
  } catch (error) {
    if (error instanceof GateClientError) throw notJoined(`the address does not answer as an organization gate (${error.kind}: ${error.message})`, 'not_an_org');
    throw error;
  }
  if (pinned !== null && health.deployment_id !== pinned) {
    throw notJoined(`this gate answers to the organization ${pinned}; the address is the organization ${health.deployment_id}`, 'org_key_changed');
  }
  let page;
  try {
    page = await door.outcomes(undefined, 1);
  } catch (error) {
    if (!(error instanceof GateClientError)) throw error;
    if (error.kind === 'auth') throw notJoined(`the organization does not know this key (${error.message}): at the organization, gate org member add --deployment-id=${self} gives one`, 'unknown_member');
    if (error.kind === 'scope') throw notJoined(`the organization refused this key (${error.message}): revoked, or not a member's submit key`, 'key_refused');
    throw notJoined(`the organization could not be asked (${error.kind}: ${error.message})`, 'org_unreachable');
  }
  if (page.member_deployment_id !== null && page.member_deployment_id !== self) {
    throw notJoined(`this key is the organization's key for the member ${page.member_deployment_id}, not for this gate (${self})`, 'another_member');
  }
  return { org: health.deployment_id, trusted_issuers: health.trusted_issuers };
}

/**
 * gv.org_join: connects this gate to an organization gate while it runs. The org is asked
 * first (askTheOrg); then the key is written to <home>/org-submit.key (0600, never journaled)
 * and [org].url, api_key_file, allow_plain_http_loopback (true for an http:// address, which
 * the door client takes only to a loopback host; and poll_every_ms when given) are
 * saved to gate.toml as gv.settings_save saves (journaled settings-saved, operator-signed when
 * operator keys are configured). Those keys are read at each use, so the next gv.submit_drain,
 * gv.outcomes_pull and the schedule's next pull use them with no restart.
 */
const orgJoinAnswer = z.object({
  queued: z.number().int(),
  poll_every_ms: z.number().int(),
  saved: z.array(z.object({ key: z.string(), value: z.unknown(), applies: z.enum(['live', 'restart']) })),
  applied_live: z.array(z.string()),
  restart_required: z.array(z.string()),
  file: z.string(),
  event_id: z.string(),
  url: z.string(),
  org_deployment_id: z.string(),
  member_deployment_id: z.string(),
  trusted_issuers: z.array(z.string()),
  key_file: z.string(),
});

export const orgJoinVerb = defineVerb({
  name: 'gv.org_join',
  role: 'admin',
  summary: "Join an organization gate while running: checks it knows this gate's key, keeps the key in the home and saves [org]; the next drain and pull use them.",
  params: z.strictObject({
    url: z.url({ protocol: /^https?$/ }),
    key: z.string().regex(API_KEY_PATTERN, 'a key is gk_ followed by 43 base64url characters'),
    poll_every_ms: z.number().int().min(0).max(86_400_000).optional(),
    proof: proofParam.optional(),
  }),
  answer: orgJoinAnswer,
  uses: ['store', 'auth', 'deployment', 'config', 'log'],
  async handler(ctx, p) {
    const { deployment, store, config } = ctx;
    const url = p.url.replace(/\/+$/, '');
    // Naming an http:// address is the explicit act plain http needs (docs/protocol.md#client-transport-rules, rule 2); the client still takes it only to a loopback host.
    const plain = url.startsWith('http:');
    const changes: Record<string, unknown> = { 'org.url': url, 'org.api_key_file': deployment.paths.orgKey, 'org.allow_plain_http_loopback': plain };
    if (p.poll_every_ms !== undefined) changes['org.poll_every_ms'] = p.poll_every_ms;
    const checked = checkChanges(deployment.paths.config, deployment.configOrigin, changes);
    if (checked.refused.length > 0) {
      throw invalidParams(`gv.org_join: ${checked.refused.map((r) => `${r.key}: ${r.reason}`).join('; ')}; nothing was saved`, { refused: checked.refused });
    }
    const operatorKey = requireOperatorProof(ctx, p.proof, 'gv.org_join');
    let door: OrgDoorClient;
    try {
      door = new OrgDoorClient({ baseUrl: url, bearer: p.key, allowPlainHttpLoopback: plain, deadlineMs: config.org.timeout_ms });
    } catch (error) {
      if (error instanceof GateClientError) throw invalidParams(`gv.org_join: url: ${error.message}`, { field: 'url', reason: 'no_endpoint' });
      throw error;
    }
    let org: Awaited<ReturnType<typeof askTheOrg>>;
    try {
      org = await askTheOrg(door, deployment.deploymentId, pinnedOrg({ store, config }));
    } finally {
      await door.close();
    }
    writeFileAtomic(deployment.paths.orgKey, `${p.key}\n`, 0o600);
    const saved = await saveCheckedSettings(ctx, checked, operatorKey, 'gv.org_join');
    return {
      url,
      org_deployment_id: org.org,
      member_deployment_id: deployment.deploymentId,
      trusted_issuers: org.trusted_issuers,
      key_file: deployment.paths.orgKey,
      ...saved,
      queued: store.submissions.queuedCount(),
      poll_every_ms: config.org.poll_every_ms,
    };
  },
});
