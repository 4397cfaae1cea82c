import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../harness/gate-process.js';
import { PostgresCluster } from '../harness/org-process.js';

/** An organization gate on PostgreSQL that nobody has a role at yet (issue 35). */
const dir = mkdtempSync(join(tmpdir(), 'org-people-empty-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
let cluster: PostgresCluster;

beforeAll(() => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
}, 120_000);
afterAll(() => {
  cluster?.stop();
});

const org = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'org', ...args, '--home', home, '--database-url', cluster.url], {
    encoding: 'utf8',
    env: { ...process.env, GATE_AUTH_ADMINS: '[]' },
  });

describe('gate org people list with nobody', () => {
  it('says so in a sentence naming how to assign one; --json still prints the empty list', () => {
    const listed = org('people', 'list');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(
      'No people have a role at this organization gate yet: assign one with gate org people assign --iss ISSUER --sub SUBJECT --role reviewer, or name admins in [auth].admins.\n',
    );
    const json = org('people', 'list', '--json');
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });
});
