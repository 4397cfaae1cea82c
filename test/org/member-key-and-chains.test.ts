import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GateProcess, uniqueText } from '../harness/gate-process.js';
import { gateCommand } from '../harness/gate-command.js';
import { OrgProcess, orgCli } from '../harness/org-process.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';

/**
 * A real member gate and a real organization gate (its embedded PostgreSQL): the member's
 * submissions are taken before and after `gate key rotate` (the organization follows the
 * rotation its submissions carry), and a copy of the member restored elsewhere and taken over
 * while the original runs is caught by the organization: one deployment, one seq, two ids.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-chains-'));
chmodSync(dir, 0o755);
const orgHome = join(dir, 'org');
const memberHome = join(dir, 'member');
let org: OrgProcess;
let submitKey: string;
let memberId: string;
const started: GateProcess[] = [];

beforeAll(async () => {
  org = await OrgProcess.start(orgHome);
  mkdirSync(memberHome, { mode: 0o700 });
  memberId = DeploymentKey.openOrCreate(join(memberHome, 'deployment.key')).deploymentId;
  submitKey = JSON.parse(orgCli(['member', 'add', `--deployment-id=${memberId}`, '--label', 'team', '--json', '--home', orgHome])).key;
}, 120_000);
afterAll(async () => {
  for (const g of started) await g.stop();
  await org?.stop();
});

const orgEnv = () => ({ GATE_ORG_URL: org.url, GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true', GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY', TEST_ORG_KEY: submitKey, GATE_ORG_POLL_EVERY_MS: '0' });

async function member(home: string, args: string[] = []): Promise<GateProcess> {
  const gate = await GateProcess.start({ home, env: orgEnv(), args });
  started.push(gate);
  return gate;
}

/** A row promoted in the member and sent to the organization at once: gv.submit_drain's tally. */
async function promoteAndSubmit(gate: GateProcess, label: string) {
  const agent = await gate.key('agent');
  const reviewer = await gate.key('reviewer');
  const id = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(label), kind: 'memory', source_uri: 'test://org', workarea: 'org' })).result.artifact_id;
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
  expect((await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: id })).result.state).toBe('queued');
  return (await gate.socket('gv.submit_drain')).result;
}

describe("the organization and a member's journal", () => {
  it('takes submissions signed before and after the member rotates its key; refuses a second chain under the deployment', async () => {
    const original = await member(memberHome);
    expect(original.deploymentId).toBe(memberId);
    expect(await promoteAndSubmit(original, 'before the rotation')).toMatchObject({ accepted: 1, refused: 0 });
    await original.stop();
    // A backup of the home as it stood: the copy started later.
    const backup = join(dir, 'backup');
    expect((await gateCommand(['backup', backup, '--home', memberHome])).code).toBe(0);

    const rotated = await gateCommand(['key', 'rotate', '--home', memberHome]);
    expect(rotated.code, rotated.err).toBe(0);
    await original.restart();
    expect(original.deploymentId).toBe(memberId);
    expect(await promoteAndSubmit(original, 'after the rotation')).toMatchObject({ accepted: 1, refused: 0 });

    // The copy, taken over elsewhere while the original still runs, writes its own events at the same seqs.
    const copyHome = join(dir, 'copy');
    expect((await gateCommand(['restore', backup, '--home', copyHome])).code).toBe(0);
    const copy = await member(copyHome, ['--takeover']);
    expect(await promoteAndSubmit(copy, 'from the copy')).toMatchObject({ accepted: 0, refused: 1 });
    await expect.poll(() => copy.stderr.join('\n')).toContain('the organization refuses this deployment: two chains under this deployment');
    expect(copy.stderr.join('\n')).toMatch(/two chains under this deployment: its event at seq \d+ reached the organization as [0-9a-f]{64}, and this submission's as [0-9a-f]{64}/);

    const listed = JSON.parse(orgCli(['member', 'list', '--json', '--home', orgHome]));
    expect(listed.find((m: { deployment_id: string }) => m.deployment_id === memberId).forked).toMatchObject({ seq: expect.any(Number) });
    expect(orgCli(['member', 'list', '--home', orgHome])).toMatch(/TWO CHAINS from seq \d+/);
    // The organization's own log keeps the fork, signed.
    expect(JSON.parse(orgCli(['verify', '--json', '--home', orgHome]))).toMatchObject({ ok: true });

    // The member's operator stops the copy and keeps the original; the organization forgets what it was shown, and takes the original again.
    await copy.stop();
    expect(orgCli(['member', 'chain-reset', `--deployment-id=${memberId}`, '--home', orgHome])).toMatch(/seqs of its journal forgotten/);
    expect(JSON.parse(orgCli(['member', 'list', '--json', '--home', orgHome])).find((m: { deployment_id: string }) => m.deployment_id === memberId).forked).toBeNull();
    expect(await promoteAndSubmit(original, 'the kept chain')).toMatchObject({ accepted: 1, refused: 0 });
  }, 240_000);
});
