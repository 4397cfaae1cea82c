import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { UnitGate } from '../harness/unit-gate.js';
import { useGate } from '../harness/use-gate.js';

const { gate, keys: { agent } } = useGate({ kind: 'unit', keys: { agent: 'agent' } });

beforeAll(async () => {
  for (let i = 0; i < 12; i++) {
    await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('tree'), workarea: 'tests/tree', kind: 'memory', source_uri: 'test://tree' });
  }
});

const verify = (home: string, ...flags: string[]) => spawnSync(process.execPath, [CLI, 'verify', '--home', home, ...flags], { encoding: 'utf8' });

function copyHome(name: string): string {
  const home = join(dirname(gate.home), name);
  mkdirSync(home, { recursive: true });
  for (const f of ['gate.db', 'deployment.key', 'gate.toml']) copyFileSync(join(gate.home, f), join(home, f));
  return home;
}

describe('the log tree kept beside the journal', () => {
  it('gv.audit_chain reports the root of the ids walked, and the stored tree agrees with it', async () => {
    const report = (await gate.socket('gv.audit_chain')).result;
    expect(report).toMatchObject({ ok: true, tree: 'agrees' });
    expect(Buffer.from(report.root, 'base64')).toHaveLength(32);
  });

  it('gv.rebuild replays the tree with the other views and finds it equal', async () => {
    const rebuilt = (await gate.socket('gv.rebuild')).result;
    expect(rebuilt.equal).toBe(true);
    expect(rebuilt.tables.log_tree).toMatchObject({ equal: true });
  });

  describe('on a stopped copy of the home', () => {
    let home: string;
    beforeAll(async () => {
      await gate.stop();
      home = copyHome('tree-copy');
    });
    afterAll(async () => {
      await gate.restart();
    });

    it('gate verify prints the root and says the stored tree agrees', () => {
      const out = verify(home);
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/log tree root \S{44} over \d+ events \(the stored tree agrees\)/);
    });

    it('a changed node of the stored tree fails gate verify, though the chain holds', () => {
      const bad = copyHome('tree-tampered');
      const db = new Database(join(bad, 'gate.db'));
      db.prepare('UPDATE log_tree SET hash = zeroblob(32) WHERE pos = (SELECT min(pos) FROM log_tree)').run();
      db.close();
      const out = verify(bad);
      expect(out.status).toBe(1);
      expect(out.stdout).toContain('log tree BAD');
      expect(out.stdout).toContain('the chain itself verified');
    });

    it('a home whose views predate the tree verifies, and its next start builds the tree from the journal', async () => {
      const old = copyHome('tree-absent');
      const db = new Database(join(old, 'gate.db'));
      db.exec('DROP TABLE log_tree');
      db.pragma('user_version = 10');
      db.close();
      const before = verify(old);
      expect(before.status).toBe(0);
      expect(before.stdout).toContain('no stored tree yet');
      const restarted = await UnitGate.open({ home: old, takeover: true });
      try {
        expect((await restarted.socket('gv.audit_chain')).result).toMatchObject({ ok: true, tree: 'agrees' });
      } finally {
        await restarted.stop();
      }
      expect(verify(old).stdout).toContain('the stored tree agrees');
    });
  });
});
