import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { OrgProcess, orgCli } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { verifyOutcomeLine } from '../../src/forms/outcome-line.js';
import { embeddedPaths, embeddedRunning } from '../../src/org/embedded-postgres.js';

// No --database-url: the org gate runs the embedded PostgreSQL in its home, started and stopped with it.
const dir = mkdtempSync(join(tmpdir(), 'org-policy-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
let org: OrgProcess;
const member = new SimulatedMember();
let key: string;

beforeAll(async () => {
  org = await OrgProcess.start(home, { env: { GATE_ORG_INBOX_MAX: '3', GATE_ORG_AUTO_COUNTERSIGN: 't1_person_signed' } });
  // A command beside a running org process uses its PostgreSQL and leaves it running.
  key = JSON.parse(orgCli(['member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'm', '--json', '--home', home])).key;
});
afterAll(async () => {
  await org?.stop();
});

async function put(s: { artifactId: string; body: unknown }) {
  const res = await request(`${org.url}/submissions/${encodeURIComponent(s.artifactId)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(s.body),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

describe('an org gate on its embedded PostgreSQL with a policy and a small inbox', () => {
  it('countersigns a person-signed T-1 by policy (deployment class), never a T-5 or an unsigned T-1', async () => {
    const t1 = member.submission('person signed claim', { humans: 1 });
    expect((await put(t1)).body).toMatchObject({ state: 'countersigned', attempts: 1 });
    const t5 = member.submission('bundle', { trustClass: 'T-5', humans: 1 });
    expect((await put(t5)).body).toMatchObject({ state: 'leased' });
    const modelOnly = member.submission('model signed claim', { humans: 0 });
    expect((await put(modelOnly)).body).toMatchObject({ state: 'leased' });
    const res = await request(`${org.url}/outcomes`, { headers: { authorization: `Bearer ${key}` } });
    const page = (await res.body.json()) as any;
    expect(page.events).toHaveLength(1);
    expect(verifyOutcomeLine(page.events[0], org.deploymentId)).toMatchObject({ type: 'countersign', artifact_id: t1.artifactId, authority_class: 'deployment' });
  });

  it('answers 503 with Retry-After once the inbox holds [org].inbox_max undecided submissions; a repeat still answers 200', async () => {
    const third = member.submission('third open', { trustClass: 'T-3' });
    expect((await put(third)).status).toBe(202);
    const full = await put(member.submission('fourth open', { trustClass: 'T-3' }));
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toBe('60');
    expect((await put(third)).status).toBe(200);
  });

  it('stops its embedded PostgreSQL when it stops', async () => {
    expect(embeddedRunning(embeddedPaths(home))).toBe(true);
    expect(await org.stop()).toBe(0);
    expect(existsSync(join(embeddedPaths(home).data, 'PG_VERSION'))).toBe(true);
    expect(embeddedRunning(embeddedPaths(home))).toBe(false);
  });
});
