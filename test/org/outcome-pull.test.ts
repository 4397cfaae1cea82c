import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GateProcess, uniqueText } from '../harness/gate-process.js';
import { OrgDoorServer } from '../harness/org-door-server.js';
import { DeploymentKey } from '../../src/journal/deployment-key.js';
import { OUTCOME_CONTRACT, signOutcome, type Outcome } from '../../src/org/outcome-line.js';

// The org side is the test double here, signing with keys the test holds, so a line can be forged.
const keysDir = mkdtempSync(join(tmpdir(), 'org-keys-'));
const orgKey = DeploymentKey.openOrCreate(join(keysDir, 'org.key'));
const otherKey = DeploymentKey.openOrCreate(join(keysDir, 'other.key'));
let door: OrgDoorServer;
let gate: GateProcess;
let agent: { key: string };
let reviewer: { key: string };

beforeAll(async () => {
  door = await OrgDoorServer.start();
  door.deploymentId = orgKey.deploymentId;
  gate = await GateProcess.start({
    env: {
      GATE_ORG_URL: door.url,
      GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
      GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY',
      TEST_ORG_KEY: `gk_${'o'.repeat(43)}`,
      GATE_ORG_POLL_EVERY_MS: '200',
    },
  });
  [agent, reviewer] = [await gate.key('agent'), await gate.key('reviewer')];
});
afterAll(async () => {
  await gate?.stop();
  await door?.stop();
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

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
};

describe("pulling an org gate's outcomes", () => {
  it('on its schedule: a countersign clears provisional; the first org key met is pinned', async () => {
    const id = await promoted('scheduled');
    door.outcomes = [line(orgKey, 1, id)];
    const countersigned = async () => (await gate.rpc(reviewer.key, 'gv.countersign_status', { artifact_id: id })).result.countersigned === true;
    await until(countersigned);
    expect(await countersigned()).toBe(true);
    expect((await gate.rpc(reviewer.key, 'gv.countersign_status', {})).result.authority).toMatchObject({ configured: true, org_deployment_id: orgKey.deploymentId });
  });

  it('refuses a line signed by another key, and an org that names another key, journaling nothing', async () => {
    const id = await promoted('forged');
    door.outcomes = [...door.outcomes, { ...line(otherKey, 2, id) }];
    const forged = await gate.socket('gv.outcomes_pull', {});
    expect(forged.error?.data).toMatchObject({ reason: 'outcome_refused' });
    // A line altered after signing fails the same way.
    door.outcomes[1] = { ...line(orgKey, 2, id), type: 'refuse' };
    expect((await gate.socket('gv.outcomes_pull', {})).error?.data).toMatchObject({ reason: 'outcome_refused' });
    door.outcomes[1] = line(orgKey, 2, id, 'refuse');
    door.deploymentId = otherKey.deploymentId;
    const changed = await gate.socket('gv.outcomes_pull', {});
    expect(changed.error?.message).toMatch(/key changed/);
    expect((await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state).toBe('ACTIVE');
    door.deploymentId = orgKey.deploymentId;
    await until(async () => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state === 'DEMOTED');
    expect((await gate.rpc(reviewer.key, 'gv.approval', { artifact_id: id })).result.status).toBe('refused');
  });

  it('a line the gate already journaled (the door serving it again) is never journaled twice; a line naming no row of this gate is skipped', async () => {
    const again = door.outcomes.map((l, i) => ({ ...l, seq: 10 + i }));
    door.outcomes = [...door.outcomes, ...again, line(orgKey, 12, `sha256:${'9'.repeat(64)}`)];
    // The schedule may be pulling at this moment: then the verb is refused pull_running and asked again.
    let tally: any;
    await until(async () => {
      const answer = await gate.socket('gv.outcomes_pull', {});
      tally = answer.result;
      return tally !== undefined && tally.pulled > 0;
    });
    expect(tally).toMatchObject({ duplicates: 2, skipped: 1, countersigned: 0, refused: 0 });
    const events = (await gate.rpc(reviewer.key, 'gv.why', { artifact_id: door.outcomes[0]!['artifact_id'] as string })).result.events;
    expect(events.filter((e: any) => e.type === 'countersign')).toHaveLength(1);
  });
});
