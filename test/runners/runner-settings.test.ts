import { describe, expect, it } from 'vitest';
import { crewSettings, issueKey, makeRunner } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process', settings: crewSettings() });

describe('gv.runner_set', () => {
  it('names a runner key: an unknown id, an agent key or a revoked runner key is not_a_runner', async () => {
    const agent = await issueKey(server, 'agent');
    const revoked = await issueKey(server, 'runner');
    await server.socket('gv.keys', { action: 'revoke', key_id: revoked.keyId });
    for (const runner of ['0123456789ab', agent.keyId, revoked.keyId]) {
      expect((await server.socket('gv.runner_set', { runner, paused: true })).error).toMatchObject({ code: -32602, data: { reason: 'not_a_runner', field: 'runner' } });
    }
  });

  it('is an admin verb', async () => {
    const reviewer = await issueKey(server, 'reviewer');
    const runner = await issueKey(server, 'runner');
    expect((await server.rpc(reviewer.key, 'gv.runner_set', { runner: runner.keyId, paused: true })).error?.message).toContain('needs role admin');
  });

  it('answers the whole settings with their defaults, a new version each call, keeping fields not named', async () => {
    const runner = await issueKey(server, 'runner', { label: 'night shift' });
    const first = (await server.socket('gv.runner_set', { runner: runner.keyId, command: 'crew-answer --fast' })).result;
    expect(first).toMatchObject({ runner: runner.keyId, settings_version: 1 });
    expect(first.event_id).toMatch(/^[0-9a-f]{64}$/);
    expect(first.settings).toEqual({
      label: 'night shift',
      paused: false,
      max_running: 2,
      budget_per_day: 50000,
      command: 'crew-answer --fast',
      repository: null,
      deny_read: [],
      managed_settings: null,
      poll_seconds: 5,
      idle_poll_seconds: 60,
      grace_seconds: 10,
      key_seconds: 60,
      progress_seconds: 600,
      models: {},
    });
    const second = (await server.socket('gv.runner_set', {
      runner: runner.keyId,
      label: 'day shift',
      max_running: 64,
      workdir_root: '/srv/crews',
      repository: '/srv/repo.git',
      deny_read: ['/etc/shadow'],
      managed_settings: ['/etc/harness/managed.json'],
      models: { coding: { model: 'm-code', effort: 'low' }, retention_days_accepted: 30 },
      base_url: 'https://models.example.com/v1',
    })).result;
    expect(second.settings_version).toBe(2);
    expect(second.settings).toMatchObject({ label: 'day shift', command: 'crew-answer --fast', max_running: 64, repository: '/srv/repo.git' });
    // null is a value here: no repository, no managed settings, the default provider.
    const third = (await server.socket('gv.runner_set', { runner: runner.keyId, repository: null, managed_settings: null, base_url: null })).result;
    expect(third.settings).toMatchObject({ repository: null, managed_settings: null, base_url: null, workdir_root: '/srv/crews' });
    expect(server.journal('runner-settings-set').at(-1)!.data).toMatchObject({ runner: runner.keyId, settings_version: 3 });
  });

  it('refuses each setting outside its rule, naming the field', async () => {
    const runner = await makeRunner(server);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ label: '' }, 'label'],
      [{ label: 'x'.repeat(65) }, 'label'],
      [{ paused: 'yes' }, 'paused'],
      [{ max_running: 0 }, 'max_running'],
      [{ max_running: 65 }, 'max_running'],
      [{ budget_per_day: 2879 }, 'budget_per_day'],
      [{ command: '' }, 'command'],
      [{ plugin_dir: 'relative/dir' }, 'plugin_dir'],
      [{ workdir_root: 'work' }, 'workdir_root'],
      [{ deny_read: Array.from({ length: 65 }, (_, i) => `/p${i}`) }, 'deny_read'],
      [{ deny_read: ['not/absolute'] }, 'deny_read.0'],
      [{ managed_settings: Array.from({ length: 9 }, (_, i) => `/m${i}`) }, 'managed_settings'],
      [{ poll_seconds: 0.05 }, 'poll_seconds'],
      [{ poll_seconds: 61 }, 'poll_seconds'],
      [{ idle_poll_seconds: 601 }, 'idle_poll_seconds'],
      [{ poll_seconds: 30, idle_poll_seconds: 20 }, 'idle_poll_seconds'],
      [{ grace_seconds: 0.4 }, 'grace_seconds'],
      [{ grace_seconds: 301 }, 'grace_seconds'],
      [{ key_seconds: 0 }, 'key_seconds'],
      [{ key_seconds: 3601 }, 'key_seconds'],
      [{ progress_seconds: 3601 }, 'progress_seconds'],
      [{ progress_seconds: 0.5 }, 'progress_seconds'],
      [{ base_url: 'http://models.example.com' }, 'base_url'],
      [{ base_url: 'https://user:pw@models.example.com' }, 'base_url'],
      [{ base_url: 'ftp://models.example.com' }, 'base_url'],
      [{ models: { astrology: { model: 'm' } } }, 'models.astrology'],
      [{ models: { coding: { model: '' } } }, 'models.coding.model'],
      [{ models: { coding: { model: 'm', effort: 'extreme' } } }, 'models.coding.effort'],
      [{ label: null }, 'label'],
      [{ colour: 'blue' }, 'colour'],
    ];
    for (const [fields, field] of cases) {
      const answer = await server.socket('gv.runner_set', { runner: runner.keyId, ...fields });
      expect(answer.error?.data?.field, `${JSON.stringify(fields)}: ${JSON.stringify(answer.error)}`).toBe(field);
    }
    // The idle interval may equal the busy one, and plain http is fine to loopback.
    expect((await server.socket('gv.runner_set', { runner: runner.keyId, poll_seconds: 60, idle_poll_seconds: 60, base_url: 'http://127.0.0.1:9/' })).error).toBeUndefined();
    expect((await server.socket('gv.runner_set', { runner: runner.keyId, progress_seconds: 0 })).error).toBeUndefined();
  });

  it('refuses what the command reads inside workdir_root (inside_workdir), naming the field', async () => {
    const runner = await makeRunner(server, { workdir_root: '/srv/work' });
    const refused = async (fields: Record<string, unknown>) => (await server.socket('gv.runner_set', { runner: runner.keyId, ...fields })).error?.data;
    expect(await refused({ plugin_dir: '/srv/work/plugin' })).toEqual({ reason: 'inside_workdir', field: 'plugin_dir' });
    expect(await refused({ plugin_dir: '/srv/work/../work/x' })).toEqual({ reason: 'inside_workdir', field: 'plugin_dir' });
    expect(await refused({ repository: '/srv/work' })).toEqual({ reason: 'inside_workdir', field: 'repository' });
    expect(await refused({ managed_settings: ['/etc/m.json', '/srv/work/m.json'] })).toEqual({ reason: 'inside_workdir', field: 'managed_settings.1' });
    // Beside it is fine, and so is a repository that is no path.
    expect(await refused({ plugin_dir: '/srv/workshop/plugin', repository: 'https://git.example.com/repo.git', managed_settings: ['/etc/m.json'] })).toBeUndefined();
    // Moving the root over what is set is refused naming the root.
    expect(await refused({ workdir_root: '/srv' })).toEqual({ reason: 'inside_workdir', field: 'workdir_root' });
  });
});

describe('gv.runner_token_set', () => {
  it('refuses a runner with no endpoint chosen (no_endpoint), and any key that is not a runner (not_a_runner)', async () => {
    const bare = await issueKey(server, 'runner');
    expect((await server.socket('gv.runner_token_set', { runner: bare.keyId, token: 'sk-abc' })).error?.data).toEqual({ reason: 'no_endpoint', field: 'runner' });
    await server.socket('gv.runner_set', { runner: bare.keyId, command: 'true' });
    expect((await server.socket('gv.runner_token_set', { runner: bare.keyId, token: 'sk-abc' })).error?.data?.reason).toBe('no_endpoint');
    const agent = await issueKey(server, 'agent');
    expect((await server.socket('gv.runner_token_set', { runner: agent.keyId, token: 'sk-abc' })).error?.data?.reason).toBe('not_a_runner');
  });

  it('takes 1-4,096 printable characters without white space', async () => {
    const runner = await makeRunner(server);
    for (const token of ['', 'has space', 'tab\there', 'line\nbreak', 'x'.repeat(4097), 'bell\u0007']) {
      expect((await server.socket('gv.runner_token_set', { runner: runner.keyId, token })).error?.data?.field, JSON.stringify(token)).toBe('token');
    }
    const longest = await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'x'.repeat(4096) });
    expect(longest.result).toMatchObject({ runner: runner.keyId, version: 1, token: 'waiting' });
  });

  it('seals the token: each set a new version; null clears it; an endpoint of another origin clears it too', async () => {
    const runner = await makeRunner(server, { base_url: 'https://one.example.com/v1' });
    const one = (await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-first' })).result;
    const two = (await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-second' })).result;
    expect([one.version, two.version]).toEqual([1, 2]);
    expect(server.journal('runner-token-set').at(-1)!.data).toEqual({ runner: runner.keyId, version: 2, origin: 'https://one.example.com' });
    // Same origin, another path: the token stays.
    await server.socket('gv.runner_set', { runner: runner.keyId, base_url: 'https://one.example.com/v2' });
    expect((await server.socket('gv.runners', { runner: runner.keyId })).result.runners[0].token).toBe('waiting');
    await server.socket('gv.runner_set', { runner: runner.keyId, base_url: 'https://two.example.com' });
    expect((await server.socket('gv.runners', { runner: runner.keyId })).result.runners[0].token).toBe('none');
    expect(server.journal('runner-token-cleared').at(-1)!.data).toEqual({ runner: runner.keyId, version: 2, reason: 'origin_changed' });
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token: 'sk-third' });
    const cleared = (await server.socket('gv.runner_token_set', { runner: runner.keyId, token: null })).result;
    expect(cleared).toMatchObject({ runner: runner.keyId, version: 3, token: 'none' });
    expect(cleared.event_id).toMatch(/^[0-9a-f]{64}$/);
    expect((await server.socket('gv.runner_token_set', { runner: runner.keyId, token: null })).result).toEqual({ runner: runner.keyId, token: 'none' });
  });

  it('a sealed token is never in the journal, the log, or gate.db in the clear', async () => {
    const runner = await makeRunner(server);
    const token = `sk-canary-${Date.now()}`;
    await server.socket('gv.runner_token_set', { runner: runner.keyId, token });
    const bad = `${token} with space`;
    await server.rpc((await issueKey(server, 'admin')).key, 'gv.runner_token_set', { runner: runner.keyId, token: bad });
    const journal = server.gate.db.prepare('SELECT body FROM journal').pluck().all() as string[];
    expect(journal.some((b) => b.includes(token))).toBe(false);
    expect(server.log.some((l) => l.includes(token))).toBe(false);
    const vault = server.gate.db.prepare('SELECT sealed FROM runner_token_vault WHERE runner = ?').pluck().get(runner.keyId) as Buffer;
    expect(vault.includes(Buffer.from(token))).toBe(false);
  });
});
