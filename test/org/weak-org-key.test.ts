import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { OrgDoorServer } from '../harness/org-door-server.js';
import { useGate } from '../harness/use-gate.js';
import { OUTCOME_CONTRACT, type Outcome } from '../../src/forms/outcome-line.js';

/** The identity point: for this "key" the signature 01 00...00 verifies over anything. */
const IDENTITY = Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]).toString('base64url');
const FORGED = Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]).toString('base64url');

let door: OrgDoorServer;

beforeAll(async () => {
  door = await OrgDoorServer.start();
  door.deploymentId = IDENTITY;
});
afterAll(async () => {
  await door?.stop();
});
const { gate, keys: { agent, reviewer } } = useGate({
  kind: 'in-process',
  env: () => ({ GATE_ORG_URL: door.url, GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true', GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY', TEST_ORG_KEY: `gk_${'w'.repeat(43)}`, GATE_ORG_POLL_EVERY_MS: '0' }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

describe('an organization naming a weak Ed25519 key as its deployment id', () => {
  it('is never pinned, so no countersign forged without a private key is applied', async () => {
    const id = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('weak org'), kind: 'memory', source_uri: 'test://weak-org', workarea: 'org/weak' })).result.artifact_id as string;
    await gate.readBody(reviewer.key, id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
    const outcome: Outcome = {
      contract: OUTCOME_CONTRACT,
      type: 'countersign',
      artifact_id: id,
      submission_id: `sha256:${'a'.repeat(64)}`,
      member_deployment_id: gate.deploymentId,
      org_deployment_id: IDENTITY,
      authority_class: 'human',
      ts: 1_700_000_000_000,
    };
    door.outcomes = [{ ...outcome, seq: 1, sig: FORGED }];
    const pulled = await gate.socket('gv.outcomes_pull', {});
    const why = (await gate.rpc(reviewer.key, 'gv.why', { artifact_id: id })).result;
    expect(why.events.map((e: { type: string }) => e.type)).not.toContain('countersign');
    expect(pulled.error?.message).toContain('not a usable Ed25519 key');
  });
});
