import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';

let cluster: PostgresCluster;
let org: OrgProcess;
let home: string;
let member: SimulatedMember;
let memberKey: string;
let reviewerKey: string;
const dir = mkdtempSync(join(tmpdir(), 'org-reading-'));
chmodSync(dir, 0o755);

const SETUP_MS = 300_000;
const CASE_MS = 180_000;

const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url]);

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  home = join(dir, 'org');
  member = new SimulatedMember();
  org = await OrgProcess.start(home, { databaseUrl: cluster.url });
  memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'reading', '--json')).key;
  reviewerKey = JSON.parse(cli('key', 'issue', '--scope', 'review', '--label', 'ann', '--json')).key;
}, SETUP_MS);
afterAll(async () => {
  await org?.stop();
  cluster?.stop();
});

/** PUT /submissions/{id} with the body's bytes exactly as given. */
async function putRaw(id: string, bytes: string | Buffer) {
  const res = await request(`${org.url}/submissions/${encodeURIComponent(id)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${memberKey}` },
    body: bytes,
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

/** The org's inbox as a reviewer reads it: the artifact ids of the undecided submissions. */
async function inboxIds(): Promise<string[]> {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${reviewerKey}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.org_inbox', params: { limit: 100 } }),
  });
  const answer = (await res.body.json()) as any;
  expect(answer.error).toBeUndefined();
  return answer.result.items.map((i: { artifact_id: string }) => i.artifact_id);
}

/** A body's JSON text as a member would send it. */
const text = (body: unknown) => JSON.stringify(body);

describe('PUT /submissions reads its body as strictly as the gate doors', { timeout: CASE_MS }, () => {
  it('a lone surrogate escaped inside submission is refused 400 with why, not 503 "try again"', async () => {
    const s = member.submission('lone surrogate');
    const raw = text(s.body).replace('"source_uri":"test:member"', '"source_uri":"test:member\\ud800"');
    const answer = await putRaw(s.artifactId, raw);
    expect(answer).toEqual({ status: 400, body: { error: expect.stringContaining('lone UTF-16 surrogate') } });
    // Its well-formed pair is fine as text: the body is then simply not the one signed.
    const paired = await putRaw(s.artifactId, text(s.body).replace('"source_uri":"test:member"', '"source_uri":"test:member\\ud83d\\ude00"'));
    expect(paired.status).toBe(400);
    expect(paired.body.error).toMatch(/canonical/);
  });

  it('a repeated key is refused 400, in any spelling, so the bytes stored are the bytes verified', async () => {
    const decoy = member.submission('decoy bytes').body.submission;
    const s = member.submission('duplicate keys');
    const valid = text(s.body);
    // A reader that keeps the first of two keys would see the decoy; JSON.parse keeps the last, the valid one.
    const spelled = valid.replace('{"submission":', `{"submission":${text(decoy)},"\\u0073ubmission":`);
    const plain = valid.replace('{"submission":', `{"submission":${text(decoy)},"submission":`);
    for (const [what, raw] of [['escaped', spelled], ['plain', plain]] as const) {
      const answer = await putRaw(s.artifactId, raw);
      expect({ what, ...answer }).toEqual({ what, status: 400, body: { error: 'duplicate key "submission" at the top level' } });
    }
    const inner = valid.replace('"content_type":"memory"', '"content_type":"memory","content_type":"skill"');
    expect(await putRaw(s.artifactId, inner)).toEqual({ status: 400, body: { error: expect.stringMatching(/^duplicate key "content_type" in submission\.envelope/) } });
    expect(await inboxIds()).not.toContain(s.artifactId);
    // The same body without the repeat is taken.
    expect((await putRaw(s.artifactId, valid)).status).toBe(202);
  });

  it('nesting 3,000 deep is refused 400 naming the limit, though the body is otherwise signed and valid', async () => {
    const deep = JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`);
    const s = member.submission('deep nesting', { over: { note: deep } });
    const answer = await putRaw(s.artifactId, text(s.body));
    expect(answer).toEqual({ status: 400, body: { error: expect.stringMatching(/nests deeper than the limit of \d+ levels/) } });
    expect(await inboxIds()).not.toContain(s.artifactId);
  });

  it('bytes that are not UTF-8 are refused 400 as such, never read as U+FFFD', async () => {
    const s = member.submission('not utf-8');
    const raw = Buffer.from(text(s.body).replace('"source_uri":"test:member"', '"source_uri":"test:member__"'));
    const at = raw.indexOf('test:member__') + 'test:member'.length;
    raw[at] = 0xc3;
    raw[at + 1] = 0x28;
    expect(await putRaw(s.artifactId, raw)).toEqual({ status: 400, body: { error: 'the body is not UTF-8' } });
  });
});
