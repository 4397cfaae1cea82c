import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse as parseToml } from 'smol-toml';
import { CLI, KEYS_PROMOTE, TEST_SCAN, tempHome, uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const ENV = {
  GATE_SCAN_BATCH_MAX: '32',
  GATE_ORG_API_KEY_ENV: 'ORG_KEY_FOR_SETTINGS_TEST',
  ORG_KEY_FOR_SETTINGS_TEST: 'gk_not-a-real-key-but-secret-all-the-same',
  GATE_ORG_DATABASE_URL: 'postgres://gate:hunter2pass@db.internal/org',
};

const OWN_FILE = '# Our gate: bundles stay small here (ops ticket 41).\n[bundle]\nentries_max = 500 # reviewed 2026-11\n';

const home = tempHome();
beforeAll(() => {
  mkdirSync(home, { recursive: true });
  // The operator's own file, with a value chosen before the first start and a comment of theirs.
  writeFileSync(join(home, 'gate.toml'), OWN_FILE, { mode: 0o600 });
});
const { gate, keys: { admin, agent }, ingestAnswer } = useGate({ home, env: ENV, keys: { admin: 'admin', agent: 'agent' } });

const settings = async () => (await gate.rpc(admin.key, 'gv.settings', {})).result;
const valueOf = (answer: { values: Array<{ key: string }> }, key: string) => answer.values.find((v) => v.key === key) as Record<string, unknown>;
const configFile = () => readFileSync(join(home, 'gate.toml'), 'utf8');

describe('gv.settings', () => {
  it('lists every key in force with its source as gate config prints it', async () => {
    const answer = await settings();
    expect(answer.file).toBe(join(home, 'gate.toml'));
    expect(valueOf(answer, 'bundle.entries_max')).toMatchObject({ value: 500, source: 'file', applies: 'restart' });
    expect(valueOf(answer, 'scan.batch_max')).toMatchObject({ value: 32, source: 'env GATE_SCAN_BATCH_MAX' });
    expect(valueOf(answer, 'server.port')).toMatchObject({ source: 'flag server.port' });
    expect(valueOf(answer, 'journal.synchronous')).toMatchObject({ value: 'full', source: 'default' });
    expect(valueOf(answer, 'quarantine.max_depth')).toMatchObject({ applies: 'live' });
    // The same home and environment through `gate config`: the same values and sources (the port is a start flag there is no config flag for).
    const printed = spawnSync(process.execPath, [CLI, 'config', '--home', home, '--json'], { encoding: 'utf8', env: { ...process.env, ...TEST_SCAN, ...KEYS_PROMOTE, ...ENV } });
    const byKey = (rows: Array<{ key: string; value: unknown; source: string }>) =>
      Object.fromEntries(rows.filter((r) => r.key !== 'server.port').map((r) => [r.key, [r.value, r.source]]));
    expect(byKey(answer.values)).toEqual(byKey(JSON.parse(printed.stdout).values));
  });

  it('never shows a secret: the variables holding them by name, and a password in a URL as ***', async () => {
    const answer = await settings();
    expect(answer.secrets).toContainEqual({ key: 'org.api_key_env', variable: 'ORG_KEY_FOR_SETTINGS_TEST', set: true });
    expect(valueOf(answer, 'org.database_url').value).toBe('postgres://gate:***@db.internal/org');
    const text = JSON.stringify(answer);
    expect(text).not.toContain('secret-all-the-same');
    expect(text).not.toContain('hunter2pass');
  });

  it('is an admin verb', async () => {
    const reviewer = (await gate.key('reviewer')).key;
    for (const verb of ['gv.settings', 'gv.settings_validate', 'gv.settings_save']) {
      expect((await gate.rpc(reviewer, verb, { changes: { 'quarantine.max_depth': 5 } })).error?.message, verb).toContain('needs role admin');
    }
  });
});

describe('gv.settings_validate', () => {
  it('names each refused key with why, and writes nothing', async () => {
    const before = configFile();
    const answer = (
      await gate.rpc(admin.key, 'gv.settings_validate', {
        changes: {
          'quarantine.max_depth': 5,
          'bundle.entries_max': 300,
          'scan.threads': -1,
          'nope.key': 1,
          'scan.batch_max': 16,
          'review.second_opinion': 'nowhere',
        },
      })
    ).result;
    expect(answer.valid).toBe(false);
    const refused = Object.fromEntries(answer.refused.map((r: { key: string; reason: string }) => [r.key, r.reason]));
    expect(Object.keys(refused).sort()).toEqual(['nope.key', 'review.second_opinion', 'scan.batch_max', 'scan.threads']);
    expect(refused['nope.key']).toContain('unknown key');
    expect(refused['scan.threads']).toMatch(/>=\s*0|too small/i);
    expect(refused['scan.batch_max']).toContain('env GATE_SCAN_BATCH_MAX');
    expect(refused['review.second_opinion']).toContain('names backend nowhere; the backends are');
    expect(answer.accepted).toEqual([
      { key: 'quarantine.max_depth', value: 5, applies: 'live' },
      { key: 'bundle.entries_max', value: 300, applies: 'restart' },
    ]);
    expect(answer.restart_required).toEqual(['bundle.entries_max']);
    expect(configFile()).toBe(before);
  });

  it('refuses an empty change and a change that is not an object', async () => {
    expect((await gate.rpc(admin.key, 'gv.settings_validate', { changes: {} })).error?.data?.field).toBe('changes');
    expect((await gate.rpc(admin.key, 'gv.settings_validate', { changes: ['quarantine.max_depth'] })).error?.data?.field).toBe('changes');
  });
});

describe('gv.settings_save', () => {
  it('refuses the whole change when any key is refused, saving nothing', async () => {
    const before = configFile();
    const r = await gate.rpc(admin.key, 'gv.settings_save', { changes: { 'quarantine.max_depth': 1, 'scan.threads': 65 } });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data.refused.map((x: { key: string }) => x.key)).toEqual(['scan.threads']);
    expect(configFile()).toBe(before);
    expect(valueOf(await settings(), 'quarantine.max_depth').value).toBe(100000);
  });

  it('writes gate.toml atomically with a journal event, applies the live keys at once and names those that wait for a restart', async () => {
    const r = await gate.rpc(admin.key, 'gv.settings_save', { changes: { 'quarantine.max_depth': 1, 'bundle.entries_max': 300 } });
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ applied_live: ['quarantine.max_depth'], restart_required: ['bundle.entries_max'], file: join(home, 'gate.toml') });
    // The file: the operator's own, its comments and order kept, the changed value edited in
    // place and the new key added in its section; private to the service account, and no
    // temporary left beside it.
    const text = configFile();
    expect(text).toBe(
      '# Our gate: bundles stay small here (ops ticket 41).\n[bundle]\nentries_max = 300 # reviewed 2026-11\n\n[quarantine]\nmax_depth = 1\n',
    );
    const parsed = parseToml(text) as Record<string, Record<string, unknown>>;
    expect(parsed['quarantine']!['max_depth']).toBe(1);
    expect(parsed['bundle']!['entries_max']).toBe(300);
    expect(statSync(join(home, 'gate.toml')).mode & 0o777).toBe(0o600);
    expect(readdirSync(home).filter((f) => f.includes('.tmp'))).toEqual([]);
    // The journal event.
    const db = new Database(join(home, 'gate.db'), { readonly: true });
    const events = db.prepare(`SELECT body FROM journal WHERE type = 'settings-saved'`).pluck().all() as string[];
    db.close();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!).data).toMatchObject({ keys: ['quarantine.max_depth', 'bundle.entries_max'], applied_live: ['quarantine.max_depth'], restart_required: ['bundle.entries_max'] });
    // Live: the next ingest past one held row is refused as the quarantine is full.
    const ingest = () => ingestAnswer(agent, { content: uniqueText('bound'), workarea: 'settings/a', source_uri: 'test://settings' });
    expect((await ingest()).error).toBeUndefined();
    expect((await ingest()).error?.code).toBe(-32006);
    const now = await settings();
    expect(valueOf(now, 'quarantine.max_depth')).toMatchObject({ value: 1, source: 'file' });
    expect(valueOf(now, 'bundle.entries_max')).toMatchObject({ value: 500, saved: 300, applies: 'restart' });
    expect(now.restart_required).toEqual(['bundle.entries_max']);
  });

  it('after a restart the saved values are in force', async () => {
    await gate.stop();
    await gate.restart();
    const now = await settings();
    expect(valueOf(now, 'bundle.entries_max')).toMatchObject({ value: 300, source: 'file' });
    expect(now.restart_required).toEqual([]);
    expect((await gate.rpc(admin.key, 'gv.settings_save', { changes: { 'quarantine.max_depth': 100000 } })).result.applied_live).toEqual(['quarantine.max_depth']);
    expect(valueOf(await settings(), 'quarantine.max_depth')).toMatchObject({ value: 100000, source: 'default' });
  });

  it('with operator keys configured, a save needs an operator proof', async () => {
    const pair = generateKeyPairSync('ed25519');
    const operator = pair.publicKey.export({ format: 'jwk' }).x!;
    expect((await gate.rpc(admin.key, 'gv.settings_save', { changes: { 'auth.operator_keys': [operator] } })).result.restart_required).toEqual(['auth.operator_keys']);
    await gate.stop();
    await gate.restart();
    const unsigned = await gate.rpc(admin.key, 'gv.settings_save', { changes: { 'quarantine.max_depth': 50 } });
    expect(unsigned.error?.data).toMatchObject({ reason: 'proof_required', field: 'proof' });
    const { nonce } = (await gate.rpc(admin.key, 'gv.challenge', {})).result;
    const proof = { nonce, sig: sign(null, Buffer.from(nonce, 'ascii'), pair.privateKey).toString('hex') };
    const signed = await gate.rpc(admin.key, 'gv.settings_save', { changes: { 'quarantine.max_depth': 50 }, proof });
    expect(signed.error).toBeUndefined();
    expect(valueOf(await settings(), 'quarantine.max_depth').value).toBe(50);
  });
});
