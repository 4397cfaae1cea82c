import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { TokenIssuer } from '../harness/token-issuer.js';
import { verifyOutcomeLine } from '../../src/forms/outcome-line.js';

/**
 * Who counts at the organization (docs/organization.md "Who counts at the organization"),
 * through a real org process on PostgreSQL: its people sign in at a company issuer the test
 * controls, whose access tokens state an email (verified or not) or none; the member's people
 * sign in at the member's own issuer, and each submission names them with the email the
 * member states. The same person is refused; one who cannot be told apart decides only with a
 * second person; one told apart decides alone.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-second-'));
chmodSync(dir, 0o755);
const home = join(dir, 'org');
const MEMBER_ISSUER = 'https://member.example';
let cluster: PostgresCluster;
let org: OrgProcess;
let company: TokenIssuer;
let db: pg.Pool;
let memberKey: string;
const member = new SimulatedMember();
const tokens: Record<string, string> = {};
let env: Record<string, string>;

const who = (name: string) => `${company.url}|${name}`;
const cli = (...args: string[]) => orgCli([...args, '--home', home, '--database-url', cluster.url], env);

/** A submission a person of the member approved and promoted, naming them with the email the member states. */
function signedBy(text: string, signer: string, email: string | null, verified = false, extra: Record<string, unknown> = {}) {
  return member.submission(text, {
    over: {
      approval: { status: 'human_approved', approved_by: { model: 0, human: 1, authority: 0 }, signers: [{ identity: signer, class: 'human', decision: 'approve', counts: true }] },
      people: email === null ? [] : [{ identity: signer, email, email_verified: verified }],
      ...extra,
    },
  });
}

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  company = await TokenIssuer.start();
  env = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([company.url]) };
  org = await OrgProcess.start(home, { databaseUrl: cluster.url, env });
  memberKey = JSON.parse(cli('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'member', '--json')).key;
  for (const name of ['alice', 'bob', 'carol', 'dave']) cli('people', 'assign', '--iss', company.url, '--sub', name, '--role', 'reviewer');
  tokens['alice'] = await company.token('alice', { email: 'alice@example.com', email_verified: true });
  tokens['bob'] = await company.token('bob', { email: 'bob@example.com', email_verified: true });
  tokens['carol'] = await company.token('carol');
  tokens['dave'] = await company.token('dave', { email: 'dave@example.com', email_verified: false });
  db = new pg.Pool({ connectionString: cluster.url, max: 1 });
}, 180_000);
afterAll(async () => {
  await db?.end();
  await org?.stop();
  await company?.stop();
  cluster?.stop();
});

async function rpc(name: string, method: string, params: Record<string, unknown>) {
  const res = await request(`${org.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[name]}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.body.json()) as { result?: any; error?: any };
}
const row = (s: { artifactId: string }) => ({ member_deployment_id: member.deploymentId, artifact_id: s.artifactId });
const countersign = (name: string, s: { artifactId: string }) => rpc(name, 'gv.org_review', { ...row(s), decision: 'countersign' });
const logged = async (artifactId: string) =>
  (await db.query<{ body: string }>("SELECT body FROM org_log WHERE type IN ('countersign', 'refuse') ORDER BY seq")).rows.map((r) => JSON.parse(r.body)).filter((e) => e.data.artifact_id === artifactId);

describe('a person the member names is matched by what both issuers assert', () => {
  const aliceAtMember = `${MEMBER_ISSUER}|m-alice`;
  const theirs = signedBy(`alice promoted this at the member ${Date.now()}`, aliceAtMember, 'Alice@Example.com');

  it('the same email, here verified and there not, is the same person: told before deciding, and refused taking and deciding', async () => {
    expect((await putSubmission(org, memberKey, theirs)).status).toBe(202);
    const listed = (await rpc('alice', 'gv.org_inbox', {})).result.items.find((i: any) => i.artifact_id === theirs.artifactId);
    expect(listed.standing).toEqual({
      counts: 'not',
      why: 'same_email',
      person: aliceAtMember,
      acts: ['approve'],
      says: `You acted on this row at the member (approve) as ${aliceAtMember}, with the email your sign-in here states: a person who signed a row at the member never counts at the organization for it. Another reviewer decides it.`,
    });
    expect((await rpc('alice', 'gv.org_take', row(theirs))).error).toMatchObject({ code: -32010, data: { reason: 'signed_at_member' } });
    expect((await countersign('alice', theirs)).error).toMatchObject({ code: -32010, data: { reason: 'signed_at_member' } });
    expect((await rpc('alice', 'gv.org_review', { ...row(theirs), decision: 'refuse', category: 'quality' })).error).toMatchObject({ data: { reason: 'signed_at_member' } });
    // Taking the next one passes hers by.
    expect((await rpc('alice', 'gv.org_take', {})).result.item).toBeNull();
    expect(await logged(theirs.artifactId)).toEqual([]);
  });

  it('no match either way (an email the member does not verify) asks for a second person: the first decision waits, the second completes it', async () => {
    const says = (await rpc('bob', 'gv.org_submission', row(theirs))).result.standing;
    expect(says).toMatchObject({ counts: 'with_others', why: 'no_match', unmatched: [aliceAtMember], people_needed: 2 });
    expect(says.says).toBe(
      `The organization cannot tell whether you are the member's ${aliceAtMember} (approve): you signed in at another issuer, and no verified email both issuers assert tells you apart. Your decision is recorded and stands once a second person makes it too.`,
    );
    expect((await rpc('bob', 'gv.org_take', row(theirs))).result.item).toMatchObject({ held_by: who('bob') });
    expect((await countersign('bob', theirs)).result).toMatchObject({ state: 'leased', changed: true, waits_for: 1, seq: null });
    // Recorded, not decided: the hold is let go, every reviewer sees the decision waiting, the member is sent nothing.
    const seen = (await rpc('carol', 'gv.org_inbox', {})).result.items.find((i: any) => i.artifact_id === theirs.artifactId);
    expect(seen).toMatchObject({ held_by: null, waiting: [{ decision: 'countersign', by: who('bob'), still_needed: 1 }] });
    expect(await logged(theirs.artifactId)).toEqual([]);
    // The same person twice is still one person; and the next take passes by a row where their decision waits.
    expect((await countersign('bob', theirs)).result).toMatchObject({ changed: false, waits_for: 1 });
    expect((await rpc('bob', 'gv.org_take', row(theirs))).error).toMatchObject({ code: -32010, data: { reason: 'waits_for_others' } });
    expect((await rpc('bob', 'gv.org_take', {})).result.item).toBeNull();

    // dave's email is not verified either: a second person the org cannot place, and the two together decide.
    const second = (await countersign('dave', theirs)).result;
    expect(second).toMatchObject({ state: 'countersigned', changed: true, with: [{ by: who('bob') }] });
    expect(await logged(theirs.artifactId)).toEqual([
      expect.objectContaining({ type: 'countersign', by: who('dave'), data: expect.objectContaining({ authority_class: 'human', with: [expect.objectContaining({ by: who('bob') })] }) }),
    ]);
    const line = (await db.query<{ line: string }>('SELECT line FROM outcomes WHERE artifact_id = $1', [theirs.artifactId])).rows[0]!.line;
    expect(verifyOutcomeLine(JSON.parse(line), org.deploymentId)).toMatchObject({ type: 'countersign', authority_class: 'human' });
    expect((await rpc('carol', 'gv.org_submission', row(theirs))).result.decision).toMatchObject({ by: who('dave'), with: [expect.objectContaining({ by: who('bob') })] });
  });

  it('a member naming two people none can be told apart from takes three: distinct people must outnumber them', async () => {
    const two = member.submission(`written by one person, signed by another ${Date.now()}`, {
      over: {
        approval: { status: 'human_approved', approved_by: { model: 0, human: 1, authority: 0 }, signers: [{ identity: `${MEMBER_ISSUER}|m-gil`, class: 'human', decision: 'approve', counts: true }] },
        decisions: [{ type: 'manual-sign', by: `${MEMBER_ISSUER}|m-hal` }],
      },
    });
    expect((await putSubmission(org, memberKey, two)).status).toBe(202);
    const says = (await rpc('bob', 'gv.org_submission', row(two))).result.standing;
    expect(says).toMatchObject({ counts: 'with_others', people_needed: 3, unmatched: [`${MEMBER_ISSUER}|m-gil`, `${MEMBER_ISSUER}|m-hal`] });
    expect(says.says).toContain('Your decision is recorded and stands once 3 people in all make it.');
    const refuse = (name: string) => rpc(name, 'gv.org_review', { ...row(two), decision: 'refuse', category: 'quality', reason: `${name} says no` });
    expect((await refuse('bob')).result).toMatchObject({ state: 'leased', waits_for: 2 });
    expect((await refuse('dave')).result).toMatchObject({ state: 'leased', waits_for: 1 });
    // A countersign is another decision: it waits on its own, and does not count toward the refusal.
    expect((await countersign('carol', two)).result).toMatchObject({ state: 'leased', waits_for: 2 });
    expect((await rpc('carol', 'gv.org_submission', row(two))).result.waiting.map((w: any) => [w.by, w.decision, w.still_needed])).toEqual([
      [who('bob'), 'refuse', 1],
      [who('dave'), 'refuse', 1],
      [who('carol'), 'countersign', 2],
    ]);
    // carol changes her mind: her refusal replaces her countersign and makes the three.
    expect((await refuse('carol')).result).toMatchObject({ state: 'refused', changed: true, with: [{ by: who('bob') }, { by: who('dave') }] });
    expect((await logged(two.artifactId))[0]).toMatchObject({ type: 'refuse', by: who('carol'), data: { category: 'quality', reason: 'carol says no', with: [{ by: who('bob'), reason: 'bob says no' }, { by: who('dave'), reason: 'dave says no' }] } });
  });

  it('two verified emails that differ tell two people apart: the decision stands alone', async () => {
    const erins = signedBy(`erin promoted this ${Date.now()}`, `${MEMBER_ISSUER}|m-erin`, 'erin@example.com', true);
    expect((await putSubmission(org, memberKey, erins)).status).toBe(202);
    expect((await rpc('bob', 'gv.org_submission', row(erins))).result.standing).toEqual({ counts: 'alone', says: null });
    expect((await countersign('bob', erins)).result).toMatchObject({ state: 'countersigned', changed: true });
    expect((await countersign('bob', erins)).result.with).toBeUndefined();
  });

  it('the same issuer: the same iss|sub is the same person with no email at all, another subject another person', async () => {
    const carols = signedBy(`carol signed this where the org trusts her issuer ${Date.now()}`, who('carol'), null);
    expect((await putSubmission(org, memberKey, carols)).status).toBe(202);
    expect((await rpc('carol', 'gv.org_submission', row(carols))).result.standing).toMatchObject({ counts: 'not', why: 'same_identity', person: who('carol') });
    expect((await countersign('carol', carols)).error).toMatchObject({ data: { reason: 'signed_at_member' } });
    expect((await rpc('dave', 'gv.org_submission', row(carols))).result.standing).toEqual({ counts: 'alone', says: null });
    expect((await rpc('dave', 'gv.org_review', { ...row(carols), decision: 'refuse', category: 'quality', reason: 'not for us' })).result).toMatchObject({ state: 'refused', changed: true });
  });

  it("a newer submission of the row clears the decisions waiting: they were about what the member sent before", async () => {
    const text = `a claim the member sends twice ${Date.now()}`;
    const before = signedBy(text, `${MEMBER_ISSUER}|m-frank`, null);
    expect((await putSubmission(org, memberKey, before)).status).toBe(202);
    expect((await countersign('bob', before)).result).toMatchObject({ waits_for: 1 });
    const after = signedBy(text, `${MEMBER_ISSUER}|m-frank`, null, false, { decisions: [{ type: 'manual-sign', by: `${MEMBER_ISSUER}|m-frank` }] });
    expect(after.artifactId).toBe(before.artifactId);
    expect((await putSubmission(org, memberKey, after)).body).toMatchObject({ state: 'leased', attempts: 2 });
    expect((await rpc('carol', 'gv.org_submission', row(after))).result.waiting).toEqual([]);
    // dave's countersign waits again, rather than completing bob's.
    expect((await countersign('dave', after)).result).toMatchObject({ state: 'leased', waits_for: 1 });
  });
});
