import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { uniqueText } from '../harness/gate-process.js';
import { OrgDoorServer } from '../harness/org-door-server.js';
import { useGate } from '../harness/use-gate.js';
import { canonicalJson } from '../../src/forms/canonical-json.js';
import { verifyWithDeploymentId } from '../../src/forms/ed25519.js';

let door: OrgDoorServer;
const ORG_KEY = `gk_${'o'.repeat(43)}`;

beforeAll(async () => {
  door = await OrgDoorServer.start();
});
afterAll(async () => {
  await door?.stop();
});
const { gate, keys: { agent, reviewer } } = useGate({
  kind: 'in-process',
  env: () => ({ GATE_ORG_URL: door.url, GATE_ORG_ALLOW_PLAIN_HTTP_LOOPBACK: 'true', GATE_ORG_API_KEY_ENV: 'TEST_ORG_KEY', TEST_ORG_KEY: ORG_KEY }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

async function promoted(label: string): Promise<string> {
  const r = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText(label), kind: 'memory', source_uri: 'test://org', workarea: 'org/a' });
  const id = r.result.artifact_id as string;
  await gate.readBody(reviewer.key, id);
  expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: id })).result.state).toBe('ACTIVE');
  return id;
}

const drain = async () => {
  const answer = await gate.socket('gv.submit_drain');
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
};
const submit = async (id: string) => (await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: id })).result;

describe('gv.submit and gv.submit_drain against a loopback org door', () => {
  it('only a claim this gate promoted is queued', async () => {
    const held = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('held'), kind: 'memory', source_uri: 't://', workarea: 'org/a' })).result.artifact_id;
    const refused = await gate.rpc(reviewer.key, 'gv.submit', { artifact_id: held });
    expect(refused.error).toMatchObject({ code: -32010, data: { reason: 'not_promoted' } });
    const byAgent = await gate.rpc(agent.key, 'gv.submit', { artifact_id: held });
    expect(byAgent.error?.data).toMatchObject({ required: 'reviewer', role: 'agent' });
  });

  it('sends a signed submission/1 and journals accepted, retry (the door’s delay) and refused', async () => {
    const [a, b, c] = [await promoted('retry'), await promoted('refused'), await promoted('accepted')];
    door.script.set(a, [{ status: 503, headers: { 'retry-after': '0' }, body: { error: 'inbox full' } }]);
    door.script.set(b, [{ status: 422, body: { error: 'unsigned' } }]);
    door.script.set(c, [{ status: 200, body: { artifact_id: c, state: 'held', attempts: 1, deployment_id: 'org-test' } }]);
    for (const id of [a, b, c]) expect(await submit(id)).toMatchObject({ state: 'queued', changed: true });
    expect((await submit(a)).changed).toBe(false);

    expect(await drain()).toMatchObject({ sent: 3, accepted: 1, retry: 1, refused: 1, stopped: false, queued: 1 });
    const put = door.received.find((r) => r.path === `/submissions/${encodeURIComponent(c)}`)!;
    expect(put.method).toBe('PUT');
    expect(put.headers.authorization).toBe(`Bearer ${ORG_KEY}`);
    const { submission, id, sig } = put.body;
    expect(submission.contract).toBe('submission/1');
    expect(submission.artifact_id).toBe(c);
    expect(submission.deployment_id).toBe(gate.deploymentId);
    const canonical = canonicalJson(submission);
    expect(id).toBe(`sha256:${createHash('sha256').update(canonical).digest('hex')}`);
    expect(verifyWithDeploymentId(gate.deploymentId, `gate submission/1\n${canonical}`, sig)).toBe(true);
    const bytes = Buffer.from(submission.content.bytes, 'base64');
    expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(submission.envelope.content_hash);
    expect(submission.envelope).toMatchObject({ trust_class: 'T-1', content_type: 'memory', derives_from: [] });
    expect(submission.decisions.map((d: any) => d.type)).toEqual(['scan', 'promote']);
    // The approval block is gv.approval's answer, read as the deployment (no person fields set).
    expect(submission.approval).toMatchObject({ artifact_id: c, state: 'ACTIVE', provisional: true, human_veto_available: false, human_sign_available: false });
    expect(submission.approval.k_have).toBeGreaterThanOrEqual(submission.approval.k_required);
    expect(submission.approval.signers.some((s: any) => s.decision === 'promote' && s.counts)).toBe(true);
    expect(submission.promotions).toHaveLength(1);
    const promote = submission.promotions[0];
    expect(JSON.parse(promote.event).type).toBe('promote');
    expect(verifyWithDeploymentId(gate.deploymentId, promote.event, promote.sig)).toBe(true);

    // The retried one goes again (Retry-After 0) and is taken; nothing is sent twice after that.
    expect(await drain()).toMatchObject({ sent: 1, accepted: 1, queued: 0 });
    expect(await drain()).toMatchObject({ sent: 0, queued: 0 });
    expect(door.received.filter((r) => r.path.endsWith(encodeURIComponent(a)))).toHaveLength(2);
    expect(door.received.filter((r) => r.path.endsWith(encodeURIComponent(c)))).toHaveLength(1);
    expect(await submit(c)).toMatchObject({ state: 'accepted', changed: false });
    expect(await submit(b)).toMatchObject({ state: 'refused', changed: false });
  });

  it('401 stops the drain; the submission stays queued for the next one', async () => {
    const [d, e] = [await promoted('stopped'), await promoted('after')];
    await submit(d);
    await submit(e);
    door.script.set(d, [{ status: 401, body: { error: 'signature: unknown key' } }]);
    expect(await drain()).toMatchObject({ sent: 1, stopped: true, queued: 2 });
    expect(door.received.some((r) => r.path.endsWith(encodeURIComponent(e)))).toBe(false);
    expect(await drain()).toMatchObject({ sent: 2, accepted: 2, stopped: false, queued: 0 });
  });

  it('the outcomes are journaled: a rebuild folds them into the same submissions table', async () => {
    const rebuilt = await gate.socket('gv.rebuild');
    expect(rebuilt.error).toBeUndefined();
    expect(rebuilt.result.equal).toBe(true);
    expect(rebuilt.result.tables.submissions.equal).toBe(true);
  });
});
