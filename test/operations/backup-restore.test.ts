import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GateProcess, uniqueText } from '../harness/gate-process.js';
import { gateCommand } from '../harness/gate-command.js';
import { opaqueBytes, readAttachment, sha256Of, upload } from '../harness/attachments.js';

/**
 * docs/operations.md's backup and restore, run as an operator would while agents keep
 * ingesting: `gate backup` of the running home, `gate backup verify`, `gate restore` into
 * another path (refused without --takeover, served with it, its views rebuilt equal), and the
 * two chains that copy and original then sign told apart by `gate verify --against`; then the
 * restore after a lost disk, into the very path, which starts as it is and journals the restore.
 */
const started: GateProcess[] = [];
afterAll(async () => {
  for (const g of started) await g.stop();
});

const start = async (options: Parameters<typeof GateProcess.start>[0] = {}) => {
  const gate = await GateProcess.start(options);
  started.push(gate);
  return gate;
};

/** Agents writing as fast as the gate answers, four at a time, until stopped; answers every claim the gate admitted. */
function ingestLoad(gate: GateProcess, key: string) {
  let running = true;
  const admitted: string[] = [];
  const workers = Array.from({ length: 4 }, async () => {
    while (running) {
      const answer = await gate.rpc(key, 'gv.ingest', { content: uniqueText('load'), workarea: 'load', kind: 'memory', source_uri: 'test://load' });
      if (answer.result) admitted.push(answer.result.artifact_id);
    }
  });
  return {
    admitted,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

describe('backup and restore of a running gate', () => {
  it('copies it under ingest, verifies the copy, restores it elsewhere only with --takeover, and gate verify names the two chains', async () => {
    const original = await start();
    const agent = await original.key('agent');
    const bytes = opaqueBytes(200_000);
    expect((await upload(original, agent.key, bytes)).error).toBeUndefined();
    const withFile = (await original.rpc(agent.key, 'gv.ingest', { content: uniqueText('with a file'), workarea: 'files', kind: 'memory', source_uri: 'test://file', attachments: [{ sha256: sha256Of(bytes), name: 'report.bin' }] })).result;
    expect(withFile.artifact_id).toMatch(/^sha256:/);

    const load = ingestLoad(original, agent.key);
    // Writes are under way before the copy starts, and go on while it runs.
    await expect.poll(() => load.admitted.length, { timeout: 30_000 }).toBeGreaterThan(20);
    const before = [...load.admitted];
    const dest = join(dirname(original.home), 'backup');
    const backup = await gateCommand(['backup', dest, '--home', original.home]);
    const during = load.admitted.length;
    await expect.poll(() => load.admitted.length, { timeout: 30_000 }).toBeGreaterThan(during + 10);
    await load.stop();
    expect(backup.err).toContain('in one read transaction');
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toMatch(/backup of .* verified; journal \d+ events to seq \d+ \(head [0-9a-f]{64}\), 1 attachment objects, deployment /);
    expect(readdirSync(dest).sort()).toEqual(['attachments', 'backup.json', 'deployment.key', 'gate.db', 'gate.toml']);

    const verified = await gateCommand(['backup', 'verify', dest]);
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toMatch(/^backup ok: made .* journal \d+ events/);

    // Restored to another path: a copy, refused until the operator says it is the gate.
    const copyHome = join(dirname(original.home), 'restored');
    const restored = await gateCommand(['restore', dest, '--home', copyHome]);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain(`gate serve --home ${copyHome} --takeover`);
    const refused = await gateCommand(['serve', '--home', copyHome, '--port', '0']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/this home was placed at .*\/home on host .* and is started at .*\/restored .*: it is a copy\..*start with --takeover/s);

    const copy = await start({ home: copyHome, args: ['--takeover'] });
    expect(copy.deploymentId).toBe(original.deploymentId);
    // The log line and the listening line come on two pipes: under load stderr's can be read after.
    await expect.poll(() => copy.stderr.join('\n'), { timeout: 10_000 }).toContain('this home is the gate from now on (--takeover, journaled)');
    expect((await copy.socket('gv.audit_chain')).result).toMatchObject({ ok: true, tree: 'agrees' });
    const rebuilt = (await copy.socket('gv.rebuild')).result;
    expect(rebuilt.equal).toBe(true);
    // Every claim answered before the copy began is in it, its file with it.
    for (const id of [withFile.artifact_id, ...before]) expect((await copy.socket('gv.node', { artifact_id: id })).error, id).toBeUndefined();
    const file = await readAttachment(copy, agent.key, withFile.artifact_id, sha256Of(bytes), true);
    expect(sha256Of(file.bytes)).toBe(sha256Of(bytes));

    // The original still runs: both now sign, and the two chains part where the copy took over.
    await original.rpc(agent.key, 'gv.ingest', { content: uniqueText('original goes on'), workarea: 'load', kind: 'memory', source_uri: 'test://after' });
    const fork = await gateCommand(['verify', '--home', original.home, '--against', copyHome]);
    expect(fork.code).toBe(1);
    expect(fork.out).toMatch(/FORK: two chains under one deployment\. They agree up to seq (\d+)/);
    const json = JSON.parse((await gateCommand(['verify', '--home', original.home, '--against', copyHome, '--json'])).out);
    expect(json.against.relation).toMatchObject({ relation: 'forked' });
    expect(json.against.relation.common).toBeGreaterThanOrEqual(before.length);
    // The backup itself is only an earlier copy of the original.
    const prefix = await gateCommand(['verify', '--home', original.home, '--against', dest]);
    expect(prefix.code).toBe(0);
    expect(prefix.out).toMatch(/an earlier copy of this journal/);
  }, 240_000);

  it('restored where the lost home lived, it starts without --takeover and journals the restore', async () => {
    const gate = await start();
    const agent = await gate.key('agent');
    const kept = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('kept'), workarea: 'w', kind: 'memory', source_uri: 'test://kept' })).result.artifact_id;
    const dest = join(dirname(gate.home), 'nightly');
    expect((await gateCommand(['backup', dest, '--home', gate.home])).code).toBe(0);
    const lost = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('lost'), workarea: 'w', kind: 'memory', source_uri: 'test://lost' })).result.artifact_id;
    await gate.stop();
    // The disk is lost: the home is gone from its path (kept aside here, to compare).
    const aside = join(dirname(gate.home), 'lost-disk');
    renameSync(gate.home, aside);
    const restored = await gateCommand(['restore', dest, '--home', gate.home]);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain('It lives where the backup\'s home did; the first start journals the restore');
    expect(existsSync(join(gate.home, 'restored-from.json'))).toBe(true);
    await gate.restart();
    await expect.poll(() => gate.stderr.join('\n'), { timeout: 10_000 }).toContain('journaled the restore of this home from a backup');
    expect(existsSync(join(gate.home, 'restored-from.json'))).toBe(false);
    expect((await gate.socket('gv.node', { artifact_id: kept })).error).toBeUndefined();
    expect((await gate.socket('gv.node', { artifact_id: lost })).error?.message).toMatch(/unknown artifact/);
    const chain = (await gate.socket('gv.audit_chain')).result;
    expect(chain).toMatchObject({ ok: true });
    expect(chain.types['home-placed']).toBe(2);
    // What the lost disk held past the backup and what the restored home wrote since are two chains.
    const fork = await gateCommand(['verify', '--home', gate.home, '--against', aside]);
    expect(fork.code).toBe(1);
    expect(fork.out).toContain('FORK');
  }, 120_000);

  it('refuses a non-empty destination, a folder that is no backup, and a restore over a home', async () => {
    const gate = await start();
    const notEmpty = await gateCommand(['backup', gate.home, '--home', gate.home]);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.err).toMatch(/is not empty: a backup goes into a new folder/);
    const noBackup = await gateCommand(['restore', dirname(gate.home), '--home', join(dirname(gate.home), 'x')]);
    expect(noBackup.code).toBe(1);
    expect(noBackup.err).toMatch(/holds no backup\.json/);
    const dest = join(dirname(gate.home), 'b');
    expect((await gateCommand(['backup', dest, '--home', gate.home])).code).toBe(0);
    const over = await gateCommand(['restore', dest, '--home', gate.home]);
    expect(over.code).toBe(1);
    expect(over.err).toMatch(/is not empty: restore into a new folder/);
  }, 120_000);
});
