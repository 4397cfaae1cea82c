import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { CLI, GateProcess, tempHome } from '../harness/gate-process.js';
import { CONFIG_KEYS } from '../../src/config/keys.js';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate();

const gateCli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('first start makes the home', () => {
  it('gate.toml with every key, gate.db in WAL, deployment.key 0600, the socket, and the main space', async () => {
    for (const f of ['gate.toml', 'gate.db', 'deployment.key', 'gate.sock']) expect(existsSync(join(gate.home, f))).toBe(true);
    expect(statSync(join(gate.home, 'deployment.key')).mode & 0o777).toBe(0o600);
    const toml = parse(readFileSync(join(gate.home, 'gate.toml'), 'utf8')) as Record<string, Record<string, unknown>>;
    for (const [section, keys] of Object.entries(CONFIG_KEYS)) {
      for (const [key, spec] of Object.entries(keys)) expect(toml[section]?.[key]).toEqual((spec as { default: unknown }).default);
    }
    expect(readFileSync(join(gate.home, 'gate.toml'), 'utf8')).toContain('# env: GATE_SERVER_PORT');
    expect(existsSync(join(gate.home, 'gate.db-wal'))).toBe(true);
    const spaces = await gate.socket('gv.spaces');
    expect(spaces.result.spaces.map((s: { name: string }) => s.name)).toContain('main');
  });

  it('a second gate on the same home refuses to start', () => {
    const out = gateCli(['serve', '--home', gate.home, '--port', '0']);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('another gate');
  });
});

describe('gate call', () => {
  it('prints the answer and exits 0 on a result', () => {
    const out = gateCli(['call', 'gv.ping', '--home', gate.home]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout).result).toMatchObject({ pong: true, deployment_id: gate.deploymentId, role: 'admin' });
  });

  it('exits 1 on an error object', () => {
    const out = gateCli(['call', 'gv.status', '{"artifact_id":"nope"}', '--home', gate.home]);
    expect(out.status).toBe(1);
    expect(JSON.parse(out.stdout).error.code).toBe(-32602);
  });

  it('exits 2 when no gate answers', () => {
    const out = gateCli(['call', 'gv.ping', '--home', tempHome()]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('no gate answers');
  });
});

describe('gate space create', () => {
  it('creates a space through the socket and journals space-created', async () => {
    const out = gateCli(['space', 'create', 'team-notes', '--policy', 'human', '--owner', 'ops', '--home', gate.home]);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('created space team-notes');
    const events = await gate.socket('gv.events', { types: ['space-created'], space: 'team-notes' });
    expect(events.result.events).toHaveLength(1);
    expect(events.result.events[0]).toMatchObject({ type: 'space-created', object: 'space', space: 'team-notes', policy: 'human' });
    const again = gateCli(['space', 'create', 'team-notes', '--policy', 'human', '--home', gate.home]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('is refused over HTTP even for an admin key: the operator door is the socket', async () => {
    const admin = await gate.key('admin');
    const answer = await gate.rpc(admin.key, 'gv.space_create', { name: 'via-http', policy: 'human' });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('socket');
  });
});

describe('gate config', () => {
  it('prints each value with its source; the environment wins over the file', () => {
    const out = gateCli(['config', '--home', gate.home, '--json'], { GATE_SERVER_PORT: '9911', GATE_ACCESS_OPEN_SPACES: 'main,lab' });
    expect(out.status).toBe(0);
    const values = Object.fromEntries(JSON.parse(out.stdout).values.map((v: { key: string }) => [v.key, v]));
    expect(values['server.port']).toEqual({ key: 'server.port', value: 9911, source: 'env GATE_SERVER_PORT' });
    expect(values['access.open_spaces']).toEqual({ key: 'access.open_spaces', value: ['main', 'lab'], source: 'env GATE_ACCESS_OPEN_SPACES' });
    // The first start wrote every key with its default: such a line is the default, not the file's choice.
    expect(values['journal.synchronous'].source).toBe('default');
  });

  it('refuses a bad environment value naming the key', () => {
    const out = gateCli(['config', '--home', gate.home], { GATE_SERVER_PORT: 'eighty' });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('server.port');
  });
});

describe('--help everywhere', () => {
  for (const args of [['--help'], ['serve', '--help'], ['call', '--help'], ['verify', '--help'], ['space', 'create', '--help'], ['config', '--help']]) {
    it(`gate ${args.join(' ')}`, () => {
      const out = gateCli(args);
      expect(out.status).toBe(0);
      expect(out.stdout).toMatch(/Usage: gate/);
    });
  }
});

describe('shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} stops cleanly: exit 0, socket and lock removed, journal verifies`, async () => {
      const g = await GateProcess.start();
      const agent = await g.key('agent');
      // Settled from the start: requests still in the kernel's accept queue at the signal are reset,
      // never received and so never promised; what matters is that every answer given is kept.
      const inflight = Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          g.rpc(agent.key, 'gv.ingest', { content: `shutdown claim ${i} ${Date.now()}`, workarea: 'tests/stop', kind: 'memory', source_uri: 'test://stop' }),
        ),
      );
      await new Promise((r) => setTimeout(r, 5));
      const code = await g.stop(signal);
      const answers = await inflight;
      const log = `signal ${g.exitSignal}; the gate's stderr:\n${g.stderr.join('\n')}`;
      expect(code, log).toBe(0);
      expect(g.stderr.filter((l) => l.includes('"msg":"stopped"')), log).toHaveLength(1);
      expect(existsSync(join(g.home, 'gate.sock'))).toBe(false);
      expect(existsSync(join(g.home, 'gate.lock')), log).toBe(false);
      const verify = gateCli(['verify', '--home', g.home, '--json']);
      expect(verify.status).toBe(0);
      // Every answered ingest is in the journal.
      const answered = answers.filter((a) => a.status === 'fulfilled' && (a.value as any).result?.artifact_id).length;
      expect(JSON.parse(verify.stdout).types.ingest ?? 0).toBeGreaterThanOrEqual(answered);
    });
  }
});
