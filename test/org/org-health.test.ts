import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { familyOf, parseMetrics, sampleSum } from '../harness/prometheus-text.js';

/**
 * The organization gate's probes and metrics: /livez and /readyz on its port with no
 * credential, /metrics on org.metrics_address only (its submissions by state and what its
 * door answered), parsed by a Prometheus text parser; /readyz is 503 once its database stops
 * answering.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-health-'));
// A root test runs PostgreSQL as the postgres account, which must reach the cluster.
chmodSync(dir, 0o755);
let cluster: PostgresCluster;
let org: OrgProcess;
let memberKey: string;
const member = new SimulatedMember();

const get = async (base: string, path: string) => {
  const res = await request(`${base}${path}`);
  const text = await res.body.text();
  return { status: res.statusCode, text, json: () => JSON.parse(text) };
};

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  const home = join(dir, 'org');
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, env: { GATE_ORG_METRICS_ADDRESS: '127.0.0.1:0' } });
  memberKey = JSON.parse(orgCli(['member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'm', '--json', '--home', home, '--database-url', cluster.url])).key;
}, 300_000);
afterAll(async () => {
  await org?.stop();
  cluster?.stop();
});

describe('the organization gate: /livez, /readyz, /metrics', () => {
  it('answers the probes on its port, and /metrics only on the metrics address', async () => {
    expect((await get(org.url, '/livez')).json()).toEqual({ live: true });
    const ready = await get(org.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ ready: true, degraded: false });
    expect((await get(org.url, '/metrics')).status).toBe(404);
    expect(org.metricsUrl).not.toBeNull();
    expect((await get(new URL(org.metricsUrl!).origin, '/readyz')).status).toBe(200);
  });

  it('counts submissions by what the door answered and by state', async () => {
    const s = member.submission('a claim the organization counts');
    expect((await putSubmission(org, memberKey, s)).status).toBe(202);
    expect((await putSubmission(org, memberKey, s)).status).toBe(200);
    const scraped = await get(new URL(org.metricsUrl!).origin, '/metrics');
    expect(scraped.status).toBe(200);
    const families = parseMetrics(scraped.text);
    const door = familyOf(families, 'gate_org_submission_requests_total');
    expect(sampleSum(door, { status: '202', state: 'leased' })).toBe(1);
    expect(sampleSum(door, { status: '200', state: 'leased' })).toBe(1);
    const states = familyOf(families, 'gate_org_submissions');
    expect(sampleSum(states, { state: 'leased' })).toBe(1);
    expect(sampleSum(states, { state: 'countersigned' })).toBe(0);
  });

  it('is not ready once its database stops answering, and still live', async () => {
    cluster.stop();
    const ready = await get(org.url, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ ready: false, reasons: [expect.objectContaining({ reason: 'database_unreachable' })] });
    expect((await get(org.url, '/livez')).status).toBe(200);
  });
});
