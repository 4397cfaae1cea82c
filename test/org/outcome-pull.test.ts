import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueText } from '../harness/gate-process.js';
import { OrgDoorServer } from '../harness/org-door-server.js';
import { useGate } from '../harness/use-gate.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { OUTCOME_CONTRACT, signOutcome, type Outcome } from '../../src/forms/outcome-line.js';

// The org side is the test double here, signing with keys the test holds, so a line can be forged.
const keysDir = mkdtempSync(join(tmpdir(), 'org-keys-'));
const orgKey = DeploymentKey.openOrCreate(join(keysDir, 'org.key'));
const otherKey = DeploymentKey.openOrCreate(join(keysDir, 'other.key'));
let door: OrgDoorServer;

beforeAll(async () => {
  door = await OrgDoorServer.start();
  door.deploymentId = orgKey.deploymentId;
});
afterAll(async () => {
  await door?.stop();
});
const { gate, keys: { agent, reviewer } } = useGate({
  kind: 'in-process',
  env: () => ({
    GATE_ORG_URL: door.url,
    GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
    GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY',
    TEST_ORG_KEY: `gk_${'o'.repeat(43)}`,
    GATE_ORG_POLL_EVERY_MS: '200',
  }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

function line(key: DeploymentKey, seq: number, artifactId: string, type: Outcome['type'] = 'countersign') {
  const outcome: Outcome = {
    contract: OUTCOME_CONTRACT,
    type,
    artifact_id: artifactId,
    submission_id: `sha256:${'a'.repeat(64)}`,
    member_deployment_id: gate.deploymentId,
    org_deployment_id: key.deploymentId,
    authority_class: 'human',
    ts: 1_700_000_000_000 + seq,
  };
  return { ...outcome, org_deployment_id: orgKey.deploymentId, seq, sig: signOutcome(key, outcome) };
}

async function promoted(label: string) {
  const id = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(label), kind: 'memory', source_uri: 'test://pull', workarea: 'org/pull' })).result.artifact_id as string;
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
  return id;
}

/** Generous: the schedule pulls every 200 ms, but a loaded machine can take seconds for one. */
const SETTLES_WITHIN = { timeout: 30_000, interval: 100 };

/**
 * gv.outcomes_pull on demand. The schedule pulls every 200 ms and one pull runs at a time, so the
 * verb may meet the schedule's pull and answer its documented refusal -32010 pull_running (docs/organization.md,
 * "Reading the organization's outcomes"): then it is asked again. Any other answer is returned.
 */
const pullNow = () =>
  vi.waitFor(async () => {
    const answer = await gate.socket('gv.outcomes_pull', {});
    if (answer.error?.data?.reason === 'pull_running') throw new Error("the schedule's pull was still running");
    return answer;
  }, { timeout: 30_000, interval: 25 });

describe("pulling an org gate's outcomes", () => {
  it('on its schedule: a countersign clears provisional; the first org key met is pinned', async () => {
    const id = await promoted('scheduled');
    door.outcomes = [line(orgKey, 1, id)];
    const countersigned = async () => (await gate.rpc(reviewer.key, 'gv.countersign_status', { artifact_id: id })).result.countersigned === true;
    await expect.poll(countersigned, SETTLES_WITHIN).toBe(true);
    expect((await gate.rpc(reviewer.key, 'gv.countersign_status', {})).result.authority).toMatchObject({ configured: true, org_deployment_id: orgKey.deploymentId });
  });

  it('refuses a line signed by another key, and an org that names another key, journaling nothing', async () => {
    const id = await promoted('forged');
    door.outcomes = [...door.outcomes, { ...line(otherKey, 2, id) }];
    const forged = await pullNow();
    expect(forged.error?.data).toMatchObject({ reason: 'outcome_refused' });
    // A line altered after signing fails the same way.
    door.outcomes[1] = { ...line(orgKey, 2, id), type: 'refuse' };
    expect((await pullNow()).error?.data).toMatchObject({ reason: 'outcome_refused' });
    door.outcomes[1] = line(orgKey, 2, id, 'refuse');
    door.deploymentId = otherKey.deploymentId;
    const changed = await pullNow();
    expect(changed.error?.message).toMatch(/key changed/);
    expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).toBe('ACTIVE');
    door.deploymentId = orgKey.deploymentId;
    await expect.poll(async () => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state, SETTLES_WITHIN).toBe('DEMOTED');
    expect((await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result.status).toBe('refused');
  });

  it('a line the gate already journaled (the door serving it again) is never journaled twice; a line naming no row of this gate is skipped', async () => {
    const again = door.outcomes.map((l, i) => ({ ...l, seq: 10 + i }));
    door.outcomes = [...door.outcomes, ...again, line(orgKey, 12, `sha256:${'9'.repeat(64)}`)];
    // The cursor is the refused line's seq 2: the page is the two repeats and the stranger.
    expect((await pullNow()).result).toMatchObject({ pulled: 3, duplicates: 2, skipped: 1, countersigned: 0, refused: 0, cursor: 12 });
    const events = (await gate.rpc(reviewer.key, 'gv.why', { artifact_id: door.outcomes[0]!['artifact_id'] as string })).result.events;
    expect(events.filter((e: any) => e.type === 'countersign')).toHaveLength(1);
  });
});
