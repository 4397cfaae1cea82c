import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { crewSettings, hello, issueKey, makeCrew, makeRunner, newInstance, proposeSheet, readWhole } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

const keyIdOf = (raw: string) => createHash('sha256').update(raw).digest('hex').slice(0, 12);

async function assigned(sheet: Record<string, unknown> = {}) {
  const crew = await makeCrew(server, sheet);
  const runner = await makeRunner(server);
  expect((await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, key_days: 3 })).error).toBeUndefined();
  return { crew, runner };
}

async function sayHello(key: string, fields: Record<string, unknown>) {
  server.clock.advance(1001);
  const answer = await server.rpc(key, 'gv.runner_hello', hello(fields));
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return answer.result;
}

describe('gv.runner_keys', () => {
  it('is for the runner the space is assigned to (not_assigned) and for runner keys only', async () => {
    const { crew } = await assigned();
    const stranger = await makeRunner(server);
    await sayHello(stranger.key, { instance: newInstance() });
    expect((await server.rpc(stranger.key, 'gv.runner_keys', { space: crew.space })).error?.data).toEqual({ reason: 'not_assigned', field: 'space' });
    expect((await server.rpc(stranger.key, 'gv.runner_keys', { space: 'main' })).error?.data?.reason).toBe('not_assigned');
    const agent = await issueKey(server, 'agent');
    expect((await server.rpc(agent.key, 'gv.runner_keys', { space: crew.space })).error?.message).toContain('needs role runner');
  });

  it('goes to the one instance heard within 120 s: none is not_heard, two are two_instances', async () => {
    const { crew, runner } = await assigned();
    expect((await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).error?.data?.reason).toBe('not_heard');
    const one = newInstance();
    await sayHello(runner.key, { instance: one });
    // A second program on the same key: heard even though its hello comes too soon.
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance: newInstance() }));
    expect((await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).error?.data).toEqual({ reason: 'two_instances', instances: 2 });
    server.clock.advance(121_000);
    await sayHello(runner.key, { instance: one });
    expect((await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).error).toBeUndefined();
  });

  it('issues one agent key per slot: read and contribute on the space, read on its connections, for key_days', async () => {
    await server.socket('gv.space_create', { name: 'library', policy: 'auto' });
    const crew = await makeCrew(server);
    // Connections need an admin's promotion: promote a second sheet by an admin.
    const admin = await issueKey(server, 'admin');
    const wider = await proposeSheet(server, { connections: ['library'] }, crew.space);
    await readWhole(server, admin.key, wider.sheetId);
    expect((await server.rpc(admin.key, 'gv.promote', { artifact_id: wider.sheetId })).error).toBeUndefined();
    const runner = await makeRunner(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, key_days: 3 });
    await sayHello(runner.key, { instance: newInstance() });
    const before = server.clock.now();
    const keys = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result;
    expect(keys.space).toBe(crew.space);
    expect(keys.members.map((m: { slot: string; role: string }) => [m.slot, m.role])).toEqual([
      [`${crew.space}/lead/1`, 'lead'],
      [`${crew.space}/scout/1`, 'scout'],
      [`${crew.space}/scout/2`, 'scout'],
    ]);
    const member = keys.members[0].key as string;
    expect(member).toMatch(/^gk_[A-Za-z0-9_-]{43}$/);
    expect((await server.rpc(member, 'gv.describe')).result.you).toMatchObject({ role: 'agent', identity: `key:${keyIdOf(member)}` });
    const wrote = await server.rpc(member, 'gv.ingest', { space: crew.space, workarea: `${crew.space}/lead/1`, kind: 'memory', source_uri: 's', content: `member note ${Date.now()}` });
    expect(wrote.error).toBeUndefined();
    const grants = (await server.socket('gv.grants', { principal: `key:${keyIdOf(member)}` })).result.grants;
    expect(grants.map((g: { space: string; capabilities: string[] }) => [g.space, g.capabilities])).toEqual([
      [crew.space, ['read', 'contribute']],
      ['library', ['read']],
    ]);
    const listed = (await server.socket('gv.keys')).result.keys.find((k: { key_id: string }) => k.key_id === keyIdOf(member));
    expect(listed).toMatchObject({ role: 'agent', label: `${crew.space}/lead/1`, issued_by: runner.identity });
    expect(listed.expires_at - before).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(listed.expires_at - before).toBeLessThan(3 * 86_400_000 + 60_000);
    // The raw keys are in this answer only.
    const journal = server.gate.db.prepare('SELECT body FROM journal').pluck().all() as string[];
    expect(journal.some((b) => b.includes(member))).toBe(false);
  });

  it('a second call before the hello acknowledges revokes the batch (superseded) and issues anew', async () => {
    const { crew, runner } = await assigned();
    await sayHello(runner.key, { instance: newInstance() });
    const first = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result.members;
    const second = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result.members;
    expect(second.map((m: { key: string }) => m.key)).not.toContain(first[0].key);
    expect((await server.rpc(first[0].key, 'gv.ping')).error).toBeDefined();
    expect((await server.rpc(second[0].key, 'gv.ping')).error).toBeUndefined();
    const reasons = server.journal('apikey-revoked').filter((e) => first.some((m: { key: string }) => keyIdOf(m.key) === e.data['key_id']));
    expect(reasons.map((e) => e.data['reason'])).toEqual(['superseded', 'superseded', 'superseded']);
  });

  it('the next hello holding every slot acknowledges the batch (held); after that a call is already_served', async () => {
    const { crew, runner } = await assigned();
    const instance = newInstance();
    await sayHello(runner.key, { instance });
    const members = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result.members;
    const slots = members.map((m: { slot: string }) => m.slot);
    expect((await sayHello(runner.key, { instance })).assignments[0].keys).toBe('issued');
    const acked = await sayHello(runner.key, { instance, serving: [{ space: crew.space, running: 0, holds: slots }] });
    expect(acked.assignments[0].keys).toBe('held');
    expect(server.journal('runner-keys-acknowledged').at(-1)!.data).toEqual({ runner: runner.keyId, space: crew.space, batch: 1, instance });
    expect((await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).error?.data?.reason).toBe('already_served');
    expect((await server.rpc(members[0].key, 'gv.ping')).error).toBeUndefined();
  });

  it('a hello that does not hold them, or from another instance, refuses the batch: revoked (refused), asked for anew', async () => {
    const { crew, runner } = await assigned();
    const instance = newInstance();
    await sayHello(runner.key, { instance });
    const members = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result.members;
    const refused = await sayHello(runner.key, { instance, serving: [{ space: crew.space, running: 0, holds: [members[0].slot] }] });
    expect(refused.assignments[0].keys).toBe('waiting');
    expect(server.journal('runner-keys-refused').at(-1)!.data).toEqual({
      runner: runner.keyId,
      space: crew.space,
      batch: 1,
      instance,
      missing: [members[1].slot, members[2].slot],
    });
    expect((await server.rpc(members[0].key, 'gv.ping')).error).toBeDefined();
    const again = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result.members;
    expect(again).toHaveLength(3);
    // The program restarted (a new instance) and claims the batch it never received.
    server.clock.advance(121_000);
    const restarted = await sayHello(runner.key, { instance: newInstance(), serving: [{ space: crew.space, running: 0, holds: again.map((m: { slot: string }) => m.slot) }] });
    expect(restarted.assignments[0].keys).toBe('waiting');
    expect(server.journal('runner-keys-refused').at(-1)!.data['missing']).toHaveLength(3);
  });
});
