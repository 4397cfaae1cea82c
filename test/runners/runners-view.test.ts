import { describe, expect, it } from 'vitest';
import { crewSettings, hello, issueKey, makeCrew, makeRunner, newInstance } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

describe('gv.runners', () => {
  it('is a reviewer verb', async () => {
    const agent = await issueKey(server, 'agent');
    expect((await server.rpc(agent.key, 'gv.runners')).error?.message).toContain('needs role reviewer');
  });

  it('shows each runner: label, settings version, newest hello, token state, crews with their key states', async () => {
    const reviewer = await issueKey(server, 'reviewer');
    const runner = await makeRunner(server, { label: 'shown' });
    const silent = await issueKey(server, 'runner', { label: 'never configured' });
    const crew = await makeCrew(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId, key_days: 2 });
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-view' });
    const instance = newInstance();
    server.clock.advance(1001);
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance, serving: [{ space: crew.space, running: 1, holds: [] }], budget: { day: '2026-11-24', spent: 3000, of: 50000 } }));
    await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space });

    const all = (await server.rpc(reviewer.key, 'gv.runners')).result.runners;
    expect(all.map((r: { runner: string }) => r.runner)).toEqual(expect.arrayContaining([runner.keyId, silent.keyId]));
    const shown = all.find((r: { runner: string }) => r.runner === runner.keyId);
    expect(shown).toMatchObject({
      runner: runner.keyId,
      label: 'shown',
      active: true,
      settings_version: 1,
      paused: false,
      heard: true,
      instances: 1,
      token: 'waiting',
      token_version: 1,
      releasing: [],
      last_hello: {
        instance,
        runner_version: '1.0.0',
        harness: '2.1.3',
        host: 'build-host',
        backend: 'anthropic',
        capacity: { crews: 4, members: 16 },
        budget: { day: '2026-11-24', spent: 3000, of: 50000 },
        serving: [{ space: crew.space, running: 1, holds: 0 }],
        settings_version: 0,
        refused: [],
        harness_found: true,
        workdir_writable: true,
      },
    });
    expect(shown.first_seen - shown.last_hello.at).toBeGreaterThanOrEqual(0);
    expect(shown.first_seen - shown.last_hello.at).toBeLessThan(1000);
    expect(shown.assignments).toEqual([
      {
        space: crew.space,
        slots: [`${crew.space}/lead/1`, `${crew.space}/scout/1`, `${crew.space}/scout/2`],
        sheet: crew.sheetId,
        key_days: 2,
        assigned_at: expect.any(Number),
        keys: 'issued',
        batch: 1,
        keys_expire_at: expect.any(Number),
        questions_in_flight: 0,
      },
    ]);
    expect(shown.questions_in_flight).toBe(0);
    // The newest hello never shows paths or the home.
    expect(JSON.stringify(shown)).not.toContain('/tmp/runner-work');
    expect(all.find((r: { runner: string }) => r.runner === silent.keyId)).toMatchObject({
      label: 'never configured',
      settings_version: 0,
      first_seen: null,
      heard: false,
      last_hello: null,
      token: 'none',
      assignments: [],
    });
    expect((await server.rpc(reviewer.key, 'gv.runners', { runner: silent.keyId })).result.runners).toHaveLength(1);
    // Silent past runners.gone_seconds, a runner is no longer heard.
    server.clock.advance(301_000);
    expect((await server.rpc(reviewer.key, 'gv.runners', { runner: runner.keyId })).result.runners[0].heard).toBe(false);
  });
});

describe('rebuild', () => {
  it('replays every runner event into views equal to the live ones', async () => {
    const crew = await makeCrew(server);
    const runner = await makeRunner(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId });
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-rebuild' });
    const instance = newInstance();
    server.clock.advance(1001);
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance }));
    const keys = (await server.rpc(runner.key, 'gv.runner_keys', { space: crew.space })).result.members;
    await server.rpc(runner.key, 'gv.runner_token');
    server.clock.advance(1001);
    await server.rpc(runner.key, 'gv.runner_hello', hello({ instance, serving: [{ space: crew.space, running: 0, holds: keys.map((k: { slot: string }) => k.slot) }] }));
    await server.socket('gv.runner_set', { runner: runner.keyId, paused: true });
    const next = await makeRunner(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: next.keyId });
    const answer = await server.socket('gv.rebuild');
    expect(answer.error?.data?.differing).toBeUndefined();
    const rebuilt = answer.result;
    expect(rebuilt.equal).toBe(true);
    expect(Object.keys(rebuilt.tables)).toEqual(expect.arrayContaining(['runners', 'runner_tokens', 'runner_assignments', 'runner_member_keys', 'runner_releases']));
  });
});
