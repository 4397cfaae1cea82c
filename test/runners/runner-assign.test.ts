import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { crewSettings, hello, issueKey, makeCrew, makeRunner, newInstance, proposeSheet } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

/** A key's id is the first 12 hex characters of its sha256. */
const ids = (keys: Array<{ key: string }>) => keys.map((m) => createHash('sha256').update(m.key).digest('hex').slice(0, 12));

/** Says hello as `runner` (one instance) and takes its keys for `space`. */
const instances = new Map<string, string>();
async function takeKeys(runner: { key: string }, space: string) {
  const instance = instances.get(runner.key) ?? newInstance();
  instances.set(runner.key, instance);
  server.clock.advance(1001);
  expect((await server.rpc(runner.key, 'gv.runner_hello', hello({ instance }))).error).toBeUndefined();
  const keys = await server.rpc(runner.key, 'gv.runner_keys', { space });
  expect(keys.error, JSON.stringify(keys.error)).toBeUndefined();
  return keys.result.members as Array<{ slot: string; role: string; key: string }>;
}

describe('gv.runner_assign', () => {
  it('refuses what is not a runner (not_a_runner) and a runner with no command or model (runner_unconfigured)', async () => {
    const crew = await makeCrew(server);
    const agent = await issueKey(server, 'agent');
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: agent.keyId })).error?.data?.reason).toBe('not_a_runner');
    const bare = await issueKey(server, 'runner');
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: bare.keyId })).error?.data).toEqual({ reason: 'runner_unconfigured', field: 'runner' });
    await server.socket('gv.runner_set', { runner: bare.keyId, command: 'true' });
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: bare.keyId })).error?.data?.reason).toBe('runner_unconfigured');
  });

  it('needs a served crew sheet of the space, and slots that are the sheet’s', async () => {
    const runner = await makeRunner(server);
    await server.socket('gv.space_create', { name: 'no-sheet', policy: 'auto' });
    expect((await server.socket('gv.runner_assign', { space: 'no-sheet', runner: runner.keyId })).error?.data).toEqual({ field: 'sheet' });
    const held = await proposeSheet(server);
    expect((await server.socket('gv.runner_assign', { space: held.space, runner: runner.keyId, sheet: held.sheetId })).error?.data).toEqual({ field: 'sheet' });
    const crew = await makeCrew(server);
    for (const slots of [['main/lead/1'], [`${crew.space}/lead/2`], [`${crew.space}/lead/1`, `${crew.space}/lead/1`], []]) {
      expect((await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, slots })).error?.data?.field, JSON.stringify(slots)).toBe('slots');
    }
    for (const key_days of [0, 91]) {
      expect((await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, key_days })).error?.data?.field).toBe('key_days');
    }
    expect((await server.socket('gv.runner_assign', { space: 'nowhere', runner: runner.keyId })).error?.data?.field).toBe('space');
  });

  it("checks the runner against the sheet: a model per role type (runner_lacks_type) and room (runner_full)", async () => {
    const crew = await makeCrew(server);
    const coder = await makeRunner(server, { models: { coding: { model: 'm' } } });
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: coder.keyId })).error?.data).toEqual({
      reason: 'runner_lacks_type',
      missing: ['reasoning', 'research'],
    });
    const small = await makeRunner(server);
    server.clock.advance(1001);
    await server.rpc(small.key, 'gv.runner_hello', hello({ instance: newInstance(), capacity: { crews: 1, members: 2 } }));
    // The sheet has three members; two slots fit.
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: small.keyId })).error?.data).toMatchObject({ reason: 'runner_full', members: 3 });
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: small.keyId, slots: [`${crew.space}/lead/1`, `${crew.space}/scout/1`] })).error).toBeUndefined();
    const other = await makeCrew(server);
    expect((await server.socket('gv.runner_assign', { space: other.space, runner: small.keyId, slots: [`${other.space}/lead/1`] })).error?.data).toMatchObject({
      reason: 'runner_full',
      crews: 2,
    });
  });

  it('assigns: the runner gets read and contribute on the space; a repeat changes nothing', async () => {
    const crew = await makeCrew(server);
    const runner = await makeRunner(server);
    const first = (await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId })).result;
    expect(first).toMatchObject({ space: crew.space, from: null, to: runner.keyId, changed: true, revoked: [] });
    expect(first.event_id).toMatch(/^[0-9a-f]{64}$/);
    expect(server.journal('runner-assigned').at(-1)!.data).toMatchObject({
      space: crew.space,
      runner: runner.keyId,
      slots: [`${crew.space}/lead/1`, `${crew.space}/scout/1`, `${crew.space}/scout/2`],
      sheet: crew.sheetId,
      key_days: 30,
    });
    const grants = (await server.socket('gv.grants', { principal: runner.identity })).result.grants;
    expect(grants).toEqual([expect.objectContaining({ space: crew.space, capabilities: ['read', 'contribute'] })]);
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId })).result).toEqual({
      space: crew.space,
      from: runner.keyId,
      to: runner.keyId,
      changed: false,
      revoked: [],
    });
  });

  it('a switch, a reissue or a slot change revokes the old batch (reason reassigned); a key-lifetime change does not', async () => {
    const crew = await makeCrew(server);
    const runner = await makeRunner(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId });
    let members = await takeKeys(runner, crew.space);
    const lifetime = (await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, key_days: 7 })).result;
    expect(lifetime).toMatchObject({ changed: true, revoked: [] });

    const reissued = (await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, reissue: true })).result;
    expect(reissued.revoked.sort()).toEqual(ids(members).sort());
    expect((await server.rpc(members[0]!.key, 'gv.ping')).error).toBeDefined();

    members = await takeKeys(runner, crew.space);
    const memberIds = ids(members);
    const fewer = (await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, slots: [`${crew.space}/lead/1`] })).result;
    expect(fewer.revoked.sort()).toEqual(memberIds.sort());
    const revokes = server.journal('apikey-revoked').filter((e) => memberIds.includes(e.data['key_id'] as string));
    expect(revokes.map((e) => e.data['reason'])).toEqual(['reassigned', 'reassigned', 'reassigned']);

    members = await takeKeys(runner, crew.space);
    expect(members.map((m) => m.slot)).toEqual([`${crew.space}/lead/1`]);
    const next = await makeRunner(server);
    const switched = (await server.socket('gv.runner_assign', { space: crew.space, runner: next.keyId })).result;
    expect(switched).toMatchObject({ from: runner.keyId, to: next.keyId, changed: true, revoked: ids(members) });
    // The old runner's grant on the space goes with the crew.
    expect((await server.socket('gv.grants', { principal: runner.identity })).result.grants).toEqual([]);
  });

  it('null releases the space; the old runner confirms with a hello that no longer serves it (runner-released)', async () => {
    const crew = await makeCrew(server);
    const runner = await makeRunner(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId });
    const members = await takeKeys(runner, crew.space);
    const released = (await server.socket('gv.runner_assign', { space: crew.space, runner: null })).result;
    expect(released).toMatchObject({ space: crew.space, from: runner.keyId, to: null, changed: true });
    expect(released.revoked).toHaveLength(members.length);
    expect((await server.socket('gv.runners', { runner: runner.keyId })).result.runners[0]).toMatchObject({ assignments: [], releasing: [crew.space] });
    const instance = newInstance();
    server.clock.advance(1001);
    // Still serving it: nothing released yet.
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance, serving: [{ space: crew.space, running: 1, holds: [] }] }));
    expect(server.journal('runner-released').filter((e) => e.data['space'] === crew.space)).toHaveLength(0);
    server.clock.advance(1001);
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance }));
    expect(server.journal('runner-released').filter((e) => e.data['space'] === crew.space).map((e) => e.data)).toEqual([{ runner: runner.keyId, space: crew.space }]);
    expect((await server.socket('gv.runners', { runner: runner.keyId })).result.runners[0].releasing).toEqual([]);
    expect((await server.socket('gv.runner_assign', { space: crew.space, runner: null })).result).toMatchObject({ changed: false, from: null, to: null });
  });
});
