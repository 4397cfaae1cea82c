import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { CLI } from '../harness/gate-process.js';
import { OrgProcess, PostgresCluster } from '../harness/org-process.js';

/**
 * The organization gate is PostgreSQL's: `gate org serve` must start and answer without
 * loading better-sqlite3 (nor the SQLite gate behind it). A preload refuses that module.
 */
const refuseSqlite = { NODE_OPTIONS: `--import=${pathToFileURL(join(import.meta.dirname, '../harness/refuse-sqlite.mjs')).href}` };
const dir = mkdtempSync(join(tmpdir(), 'org-no-sqlite-'));
chmodSync(dir, 0o755);
let cluster: PostgresCluster;
let org: OrgProcess;

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  org = await OrgProcess.start(join(dir, 'org'), { databaseUrl: cluster.url, env: refuseSqlite });
}, 300_000);
afterAll(async () => {
  await org?.stop();
  cluster?.stop();
});

describe('the organization server', () => {
  it('starts and answers with better-sqlite3 refused', async () => {
    const res = await request(`${org.url}/health`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ ok: true, deployment_id: org.deploymentId, trusted_issuers: [] });
    expect(org.stderr.join('')).not.toContain('better-sqlite3');
  });

  it('the same preload stops the SQLite gate, so the check above can fail', () => {
    const done = spawnSync(process.execPath, [CLI, 'serve', '--home', join(dir, 'gate'), '--port', '0'], {
      encoding: 'utf8',
      env: { ...process.env, ...refuseSqlite },
      timeout: 120_000,
    });
    expect(done.status).not.toBe(0);
    expect(done.stderr).toContain('better-sqlite3 was loaded by');
  }, 150_000);
});
