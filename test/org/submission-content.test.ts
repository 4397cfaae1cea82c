import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { CLI } from '../harness/gate-process.js';

let cluster: PostgresCluster;
let org: OrgProcess;
let home: string;
let member: SimulatedMember;
let memberKey: string;
const dir = mkdtempSync(join(tmpdir(), 'org-content-'));
chmodSync(dir, 0o755);

const SETUP_MS = 300_000;
const CASE_MS = 180_000;

const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url]);

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  home = join(dir, 'org');
  member = new SimulatedMember();
  org = await OrgProcess.start(home, { databaseUrl: cluster.url });
  memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'content', '--json')).key;
}, SETUP_MS);
afterAll(async () => {
  await org?.stop();
  cluster?.stop();
});

async function put(id: string, body: unknown) {
  const res = await request(`${org.url}/submissions/${encodeURIComponent(id)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${memberKey}` },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

const base64 = (s: string) => Buffer.from(s).toString('base64');

describe('PUT /submissions checks the content it stores against its envelope and artifact id', { timeout: CASE_MS }, () => {
  it('refuses bytes other than those envelope.content_hash names, though signed by the member (422 with why)', async () => {
    const s = member.submission('the row the member promoted', { over: { content: { encoding: 'base64', bytes: base64('other bytes for the org to countersign') } } });
    expect(await put(s.artifactId, s.body)).toEqual({ status: 422, body: { error: expect.stringMatching(/^content mismatch: .* not envelope\.content_hash$/) } });
  });

  it('refuses a size_bytes other than the bytes', async () => {
    const content = 'sized content';
    const honest = member.submission(content);
    const envelope = { ...(honest.body.submission['envelope'] as Record<string, unknown>), size_bytes: 999 };
    const s = member.submission(content, { over: { envelope } });
    expect(await put(s.artifactId, s.body)).toEqual({ status: 422, body: { error: expect.stringMatching(/^content mismatch: the bytes are 13 long/) } });
  });

  it("refuses an artifact id that is not the row of these bytes: no signed ingest naming both", async () => {
    const s = member.submission('artifact id check');
    const ingestOf = (data: Record<string, unknown>) => member.event('ingest', { space: 'main', leaves: null, enters: 'L0_RAW', ...data }, 3);
    const cases: Array<[string, unknown]> = [
      ['no ingest event', null],
      ['the ingest of another row', ingestOf({ artifact_id: `sha256:${'3'.repeat(64)}`, content_hash: s.artifactId })],
      ['an ingest naming other content', ingestOf({ artifact_id: s.artifactId, content_hash: `sha256:${'4'.repeat(64)}` })],
      ['an ingest signed by another deployment', new SimulatedMember().event('ingest', { artifact_id: s.artifactId, content_hash: s.artifactId })],
      ['another event type', member.event('promote', { artifact_id: s.artifactId, content_hash: s.artifactId })],
    ];
    for (const [what, ingest] of cases) {
      const body = member.submission('artifact id check', { over: { ingest } }).body;
      const answer = await put(s.artifactId, body);
      expect({ what, ...answer }).toEqual({ what, status: 422, body: { error: expect.stringMatching(/^artifact mismatch: /) } });
    }
  });

  it('refuses content that is not base64 of the bytes (400)', async () => {
    for (const content of [{ encoding: 'base64', bytes: null }, { encoding: 'utf8', bytes: 'x' }, { encoding: 'base64', bytes: 'eA' }, 'x']) {
      const s = member.submission('content shape', { over: { content } });
      const answer = await put(s.artifactId, s.body);
      expect({ content, ...answer }).toMatchObject({ content, status: 400, body: { error: expect.stringMatching(/submission\.content/) } });
    }
  });

  it('takes the honest submission', async () => {
    const s = member.submission('an honest row');
    expect((await put(s.artifactId, s.body)).status).toBe(202);
  });
});

describe("a member's deployment id is a strong Ed25519 key", { timeout: CASE_MS }, () => {
  it.each([
    ['the identity point', '0100000000000000000000000000000000000000000000000000000000000000'],
    ['all zeros', '0000000000000000000000000000000000000000000000000000000000000000'],
    ['an order-8 point', 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'],
    ['a non-canonical y = p', 'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'],
  ])('gate org member add refuses %s', (_what, hex) => {
    const id = Buffer.from(hex, 'hex').toString('base64url');
    const run = spawnSync(process.execPath, [CLI, 'org', 'member', 'add', `--deployment-id=${id}`, '--label', 'weak', '--json', '--home', home, '--database-url', cluster.url], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('refused');
    expect(JSON.parse(cli('member', 'list', '--json')).map((m: { deployment_id: string }) => m.deployment_id)).not.toContain(id);
  });
});
