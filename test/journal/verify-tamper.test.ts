import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent } } = useGate({ kind: 'unit', keys: { agent: 'agent' } });

beforeAll(async () => {
  for (let i = 0; i < 10; i++) {
    await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('tamper'), workarea: 'tests/tamper', kind: 'memory', source_uri: 'test://t' });
  }
  await gate.stop();
});

/** A copy of the stopped gate's home, so each tampering starts from the same good journal. */
function copyHome(name: string): string {
  const home = join(dirname(gate.home), name);
  mkdirSync(home, { recursive: true });
  for (const f of ['gate.db', 'deployment.key', 'gate.toml']) copyFileSync(join(gate.home, f), join(home, f));
  return home;
}

const verify = (home: string) => spawnSync(process.execPath, [CLI, 'verify', '--home', home], { encoding: 'utf8' });

/** Edits the journal behind the gate's back: the append-only triggers must be dropped first. */
function tamper(home: string, sql: string, ...args: unknown[]): void {
  const db = new Database(join(home, 'gate.db'));
  db.exec('DROP TRIGGER journal_no_update; DROP TRIGGER journal_no_delete;');
  db.prepare(sql).run(...args);
  db.close();
}

describe('gv.audit_chain', () => {
  const { gate: live, keys: { agent } } = useGate({ kind: 'unit', keys: { agent: 'agent' } });

  it('verifies the live journal for an admin and is refused below admin naming both roles', async () => {
    await live.rpc(agent.key, 'gv.ingest', { content: uniqueText('chain'), workarea: 'tests/chain', kind: 'memory', source_uri: 'test://c' });
    const report = await live.socket('gv.audit_chain');
    expect(report.result).toMatchObject({ ok: true, deployment_id: live.deploymentId });
    expect(report.result.types).toMatchObject({ 'deployment-created': 1, ingest: 1, scan: 1 });
    expect((await live.rpc(agent.key, 'gv.audit_chain')).error?.data).toEqual({ required: 'admin', role: 'agent' });
  });
});

describe('gate verify', () => {
  it('reports a good journal with its event count and exits 0', () => {
    const out = verify(gate.home);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/journal ok: \d+ events/);
  });

  it('the journal refuses updates and deletes at the SQLite level', () => {
    const db = new Database(join(copyHome('readonly-check'), 'gate.db'));
    expect(() => db.prepare("UPDATE journal SET type = 'x' WHERE seq = 3").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM journal WHERE seq = 3').run()).toThrow(/append-only/);
    db.close();
  });

  it('a changed body is reported at its seq', () => {
    const home = copyHome('changed-body');
    const db = new Database(join(home, 'gate.db'), { readonly: true });
    const row = db.prepare('SELECT body FROM journal WHERE seq = 7').get() as { body: string };
    db.close();
    tamper(home, 'UPDATE journal SET body = ? WHERE seq = 7', row.body.replace('"by":"key:', '"by":"key:0'));
    const out = verify(home);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('BAD at seq 7');
  });

  it('a deleted event is reported at the first seq after the gap', () => {
    const home = copyHome('deleted');
    tamper(home, 'DELETE FROM journal WHERE seq = 5');
    const out = verify(home);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('BAD at seq 6');
  });

  it('a forged signature is reported at its seq', () => {
    const home = copyHome('forged');
    tamper(home, "UPDATE journal SET sig = ? WHERE seq = 9", Buffer.alloc(64, 1).toString('base64url'));
    const out = verify(home);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('BAD at seq 9');
    expect(out.stdout).toContain('signature');
  });

  it("a journal not signed by the home's key fails against the home deployment key", () => {
    const home = copyHome('other-key');
    const other = copyHome('other-key-source');
    // Replace the key file: every signature is now by a key this home does not hold.
    writeFileSync(join(home, 'deployment.key'), generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const out = verify(home);
    expect(out.status).toBe(1);
    expect(out.stdout).toMatch(/journal BAD: .*deployment\.key holds key [\w-]{43}, but the journal is signed by [\w-]{43}/);
    expect(verify(other).status).toBe(0);
  });
});
