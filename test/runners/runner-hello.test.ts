import { describe, expect, it } from 'vitest';
import { crewSettings, hello, issueKey, makeCrew, makeRunner, newInstance, startCrewGate } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

/** Sets the value at a dotted path of a fresh hello body (undefined deletes it). */
function helloWith(path: string, value: unknown): Record<string, unknown> {
  const body = structuredClone(hello({ instance: newInstance() })) as Record<string, any>;
  const keys = path.split('.');
  let at = body;
  for (const k of keys.slice(0, -1)) at = at[k];
  if (value === undefined) delete at[keys.at(-1)!];
  else at[keys.at(-1)!] = value;
  return body;
}

describe('gv.runner_hello: gate.runner-hello/1, every field by its rule', () => {
  it('refuses each violation naming its field', async () => {
    const runner = await makeRunner(server);
    const cases: Array<[string, unknown, string?]> = [
      ['format', 'gate.runner-hello/2'],
      ['format', undefined],
      ['instance', 'A'.repeat(32)],
      ['instance', 'a'.repeat(31)],
      ['runner', '1.0'],
      ['runner', 'v1.0.0'],
      ['runner', '01.0.0'],
      ['harness', 'has space'],
      ['harness', 'x'.repeat(65)],
      ['host', ''],
      ['host', 'h'.repeat(65)],
      ['host', 'tab\there'],
      ['backend', 'https://api.example.com'],
      ['backend', 'api.example.com:443'],
      ['backend', 'api.example.com/v1'],
      ['backend', 'API.example.com'],
      ['backend', 'token@api.example.com'],
      ['backend', 'x'.repeat(254)],
      ['models', { astrology: { model: 'm' } }, 'models.astrology'],
      ['models.reasoning', { model: '' }, 'models.reasoning.model'],
      ['models.reasoning', { model: 'm', effort: 'max' }, 'models.reasoning.effort'],
      ['models_floor', 'yes'],
      ['capacity.crews', 0],
      ['capacity.crews', 17],
      ['capacity.members', 0],
      ['capacity.members', 65],
      ['recorded.ok', 1],
      ['recorded.version', -1],
      ['budget.day', '24/11/2026'],
      ['budget.spent', -5],
      ['budget.of', 1.5],
      ['serving', Array.from({ length: 17 }, (_, i) => ({ space: `s${i}`, running: 0, holds: [] }))],
      ['serving', [{ space: 'main', running: 65, holds: [] }], 'serving.0.running'],
      ['serving', [{ space: 'main', running: 0, holds: ['main/lead'] }], 'serving.0.holds.0'],
      ['facts.claude.found', 'true'],
      ['facts.plugin.mcp', undefined],
      ['facts.workdir.path', 'line\nbreak'],
      ['facts.git', 'not a version'],
      ['facts.home', undefined],
      ['settings_version', -1],
      ['refused', [{ field: 'workdir_root', code: 'gone' }], 'refused.0.code'],
      ['refused', Array.from({ length: 17 }, () => ({ field: 'command', code: 'not_found' }))],
      ['token.version', 'one'],
      ['token.held', undefined],
      ['colour', 'blue'],
    ];
    for (const [path, value, field] of cases) {
      const answer = await server.rpc(runner.key, 'gv.runner_hello', helloWith(path, value));
      expect(answer.error?.data?.field, `${path} = ${JSON.stringify(value)}: ${JSON.stringify(answer.error)}`).toBe(field ?? path);
    }
    // Empty harness and git versions and no models are facts a runner may report.
    server.clock.advance(1001);
    const plain = await server.rpc(runner.key, 'gv.runner_hello', hello({ instance: newInstance(), harness: '', models: {}, facts: { ...(hello().facts as object), git: '' } }));
    expect(plain.error).toBeUndefined();
  });

  it('is for runner keys only', async () => {
    const agent = await issueKey(server, 'agent');
    expect((await server.rpc(agent.key, 'gv.runner_hello', hello())).error?.message).toContain('needs role runner');
    expect((await server.socket('gv.runner_hello', hello())).error?.message).toContain('needs role runner');
  });

  it('at most one a minute per key by default: a sooner hello is refused too_soon with retry_after_ms', async () => {
    const minute = await startCrewGate({ 'runners.hello_interval_seconds': 60 });
    try {
      const runner = await makeRunner(minute);
      const instance = newInstance();
      expect((await minute.rpc(runner.key, 'gv.runner_hello', hello({ instance }))).error).toBeUndefined();
      minute.clock.advance(59_000);
      const soon = await minute.rpc(runner.key, 'gv.runner_hello', hello({ instance }));
      expect(soon.error).toMatchObject({ code: -32602, data: { reason: 'too_soon' } });
      expect(soon.error!.data.retry_after_ms).toBeGreaterThan(0);
      expect(soon.error!.data.retry_after_ms).toBeLessThanOrEqual(1000);
      minute.clock.advance(1000);
      expect((await minute.rpc(runner.key, 'gv.runner_hello', hello({ instance }))).error).toBeUndefined();
      // Another key has its own minute.
      const other = await makeRunner(minute);
      expect((await minute.rpc(other.key, 'gv.runner_hello', hello({ instance: newInstance() }))).error).toBeUndefined();
    } finally {
      await minute.stop();
    }
  });

  it('answers now, settings only when the runner’s version differs, label, token and assignments; journals first-seen once', async () => {
    const runner = await makeRunner(server, { label: 'crew host' });
    const crew = await makeCrew(server);
    await server.socket('gv.runner_assign', { space: crew.space, runner: runner.keyId });
    const instance = newInstance();
    server.clock.advance(1001);
    const before = server.clock.now();
    const first = (await server.rpc(runner.key, 'gv.runner_hello', hello({ instance }))).result;
    expect(first.now).toBeGreaterThanOrEqual(before);
    expect(first.now).toBeLessThanOrEqual(server.clock.now());
    expect(first).toMatchObject({
      settings_version: 1,
      label: 'crew host',
      token: 'none',
      assignments: [{ space: crew.space, slots: [`${crew.space}/lead/1`, `${crew.space}/scout/1`, `${crew.space}/scout/2`], sheet: crew.sheetId, keys: 'waiting' }],
    });
    expect(first.settings).toMatchObject({ command: 'true', label: 'crew host' });
    expect(first.questions).toEqual([{ space: crew.space, asked: [], routed: [], truncated: false }]);
    server.clock.advance(1001);
    const second = (await server.rpc(runner.key, 'gv.runner_hello', hello({ instance, settings_version: 1 }))).result;
    expect(second.settings).toBeUndefined();
    expect(second.settings_version).toBe(1);
    const seen = server.journal('runner-first-seen').filter((e) => e.data['runner'] === runner.keyId);
    expect(seen.map((e) => e.data)).toEqual([{ runner: runner.keyId, instance, runner_version: '1.0.0', host: 'build-host' }]);
  });

  it('a runner never configured is answered with settings version 0 and its key label', async () => {
    const bare = await issueKey(server, 'runner', { label: 'unconfigured' });
    const answer = (await server.rpc(bare.key, 'gv.runner_hello', hello({ instance: newInstance() }))).result;
    expect(answer).toMatchObject({ settings_version: 0, label: 'unconfigured', token: 'none', assignments: [] });
    expect(answer.settings).toBeUndefined();
    // No crew, no questions part.
    expect(answer.questions).toBeUndefined();
  });
});
