import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { CLI } from '../harness/gate-process.js';
import { gateCommand, type CommandRun } from '../harness/gate-command.js';
import { HostileHttp } from '../harness/hostile-server.js';
import { SimulatedMember } from '../harness/member-submission.js';
import { OrgProcess, PostgresCluster, orgCli, putSubmission } from '../harness/org-process.js';
import { addPersonWithCli, authorizeCode } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * A person's sign-in at an organization is kept between `gate org` commands (issue 49 item 7,
 * docs/organization.md "People at the organization from the terminal"): listing the inbox and
 * then deciding is one sign-in, not two. Every actor is real: an organization gate on
 * PostgreSQL trusting two gates' own sign-in providers, a simulated member's submissions, and
 * the `gate` CLI as a child process whose state directory ($XDG_STATE_HOME) is the test's. A
 * sign-in is counted where it happens, in the issuer's journal (`signin-started`); the browser
 * sign-in is done as a browser does it, at the address the command prints (authorizeCode), the
 * code delivered to the command's loopback listener.
 */
const dir = mkdtempSync(join(tmpdir(), 'org-session-'));
chmodSync(dir, 0o755);
const STATE = join(dir, 'state');
const SESSIONS = join(STATE, 'gate', 'org-sessions.json');
const PASSWORD = 'a password bob keeps to himself';
const BOB = 'bob@example.test';
let cluster: PostgresCluster;
let org: OrgProcess;
let db: pg.Pool;
let trust: Record<string, string>;
/** bob at each issuer: two identities the organization makes reviewers. */
let bobHere: string;
let bobThere: string;
const member = new SimulatedMember();
let memberKey: string;

// The issuer bob signs in at, and another the organization trusts too.
const { gate: here } = useGate({ ownIssuer: true });
const { gate: there } = useGate({ ownIssuer: true });

beforeAll(async () => {
  cluster = PostgresCluster.start(join(dir, 'pg'));
  trust = { GATE_AUTH_TRUSTED_ISSUERS: JSON.stringify([here.url, there.url]) };
  org = await OrgProcess.start(join(dir, 'org'), { databaseUrl: cluster.url, env: trust });
  db = new pg.Pool({ connectionString: cluster.url, max: 1 });
  bobHere = await addPersonWithCli(here, BOB, PASSWORD, 'reader');
  bobThere = await addPersonWithCli(there, BOB, PASSWORD, 'reader');
  for (const identity of [bobHere, bobThere]) {
    const bar = identity.lastIndexOf('|');
    orgAdmin('people', 'assign', '--iss', identity.slice(0, bar), '--sub', identity.slice(bar + 1), '--role', 'reviewer');
  }
  memberKey = JSON.parse(orgAdmin('member', 'add', `--deployment-id=${member.deploymentId}`, '--label', 'a member', '--json')).key as string;
}, 120_000);
afterAll(async () => {
  await db?.end();
  await org?.stop();
  cluster?.stop();
});

const orgAdmin = (...args: string[]) => orgCli([...args, '--home', join(dir, 'org'), '--database-url', cluster.url], trust);
const env = { XDG_STATE_HOME: STATE };

/** `gate org ARGS --url ORG --issuer ISS`, as bob; with `password`, signed in by --password-stdin if it signs in at all. */
const asBob = (args: string[], issuer: string, options: { password?: boolean; url?: string } = {}) =>
  gateCommand(
    ['org', ...args, '--url', options.url ?? org.url, '--issuer', issuer, ...(options.password ? ['--email', BOB, '--password-stdin'] : [])],
    options.password ? `${PASSWORD}\n` : '',
    env,
  );

/**
 * `gate org ARGS` as bob with no password: when the command prints a sign-in address, bob signs
 * in there as in a browser (the issuer's form, then its redirect to the command's loopback).
 */
function asBobInTheBrowser(args: string[], issuer: typeof here): Promise<CommandRun & { signedIn: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'org', ...args, '--url', org.url, '--issuer', issuer.url, '--no-browser'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    let signedIn = false;
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      const address = /Sign in in your browser[^\n]*\n\s+(\S+)\n/.exec(err)?.[1];
      if (address === undefined || signedIn) return;
      signedIn = true;
      void (async () => {
        const fields = Object.fromEntries(new URL(address).searchParams);
        const code = await authorizeCode(issuer, fields, BOB, PASSWORD);
        await fetch(`${fields['redirect_uri']}?${new URLSearchParams({ code, state: fields['state']! })}`);
      })();
    });
    child.stdin.on('error', () => undefined);
    child.once('close', (code) => resolve({ code, out, err, signedIn }));
    child.stdin.end('');
  });
}

/** How many times anyone signed in through the command line at `issuer` (its journal's signin-started of client gate-cli). */
function signIns(issuer: typeof here): number {
  const journal = new Database(join(issuer.home, 'gate.db'), { readonly: true });
  try {
    return (journal.prepare("SELECT body FROM journal WHERE type = 'signin-started'").all() as Array<{ body: string }>).filter((r) => JSON.parse(r.body).data.client_id === 'gate-cli').length;
  } finally {
    journal.close();
  }
}

/** The signin-ended reasons of `issuer`'s journal. */
function signInsEnded(issuer: typeof here): string[] {
  const journal = new Database(join(issuer.home, 'gate.db'), { readonly: true });
  try {
    return (journal.prepare("SELECT body FROM journal WHERE type = 'signin-ended'").all() as Array<{ body: string }>).map((r) => JSON.parse(r.body).data.reason as string);
  } finally {
    journal.close();
  }
}

type Kept = { org: string; issuer: string; access_token: string; expires_at: number; identity: string; email: string | null };
const kept = (): Record<string, Kept> => JSON.parse(readFileSync(SESSIONS, 'utf8')).sessions;
/** Changes the session kept for the organization, as something outside the command would. */
const alterKept = (change: (k: Kept) => void) => {
  const all = kept();
  change(all[org.url]!);
  writeFileSync(SESSIONS, JSON.stringify({ sessions: all }), { mode: 0o600 });
};

async function submitted(text: string): Promise<string> {
  const s = member.submission(`${text} ${process.pid}`);
  expect((await putSubmission(org, memberKey, s)).status).toBe(202);
  return s.artifactId;
}

describe('gate org review keeps the sign-in', () => {
  it('two commands, one sign-in: the list signs bob in, and the countersign that follows uses the kept sign-in with no browser', async () => {
    const claim = await submitted('a claim bob lists and then countersigns');
    const before = signIns(here);
    const listed = await asBob(['review'], here.url, { password: true });
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain(`${claim} from member ${member.deploymentId}`);
    expect(signIns(here)).toBe(before + 1);
    // Kept in the person's state directory, theirs alone, for this organization at this issuer.
    expect(statSync(SESSIONS).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(SESSIONS)).mode & 0o777).toBe(0o700);
    expect(kept()[org.url]).toMatchObject({ org: org.deploymentId, issuer: here.url, identity: bobHere, email: BOB });

    // No password, no email, nothing on stdin: the kept sign-in serves.
    const decided = await asBob(['review', claim, '--countersign', '--yes'], here.url);
    expect(decided.code, decided.err).toBe(0);
    expect(decided.err).not.toContain('Sign in');
    expect(signIns(here)).toBe(before + 1);
    // bob by his email, his identity beside it; the answer keeps the identity for programs.
    expect(decided.out).toContain(`Countersigned by ${BOB} (${bobHere}).`);
    const answer = JSON.parse(decided.out.slice(decided.out.indexOf('\n{') + 1));
    expect(answer).toMatchObject({ artifact_id: claim, state: 'countersigned', changed: true, by: bobHere });
    const logged = (await db.query<{ body: string }>("SELECT body FROM org_log WHERE type = 'countersign'")).rows.map((r) => JSON.parse(r.body));
    expect(logged).toEqual(expect.arrayContaining([expect.objectContaining({ by: bobHere, data: expect.objectContaining({ artifact_id: claim, authority_class: 'human' }) })]));
  });

  it('a changed issuer asks again: --issuer naming the other one signs bob in there, and naming the first again signs him in there in the browser', async () => {
    const [hereBefore, thereBefore] = [signIns(here), signIns(there)];
    const atThere = await asBob(['review'], there.url, { password: true });
    expect(atThere.code, atThere.err).toBe(0);
    expect(atThere.err).toContain(`the sign-in kept for ${org.url} is at ${here.url}, not at ${there.url}: signing in again`);
    expect(signIns(there)).toBe(thereBefore + 1);
    expect(kept()[org.url]).toMatchObject({ issuer: there.url, identity: bobThere });
    // The sign-in it replaced ended at its issuer.
    expect(signInsEnded(here)).toContain('logout');

    const back = await asBobInTheBrowser(['review'], here);
    expect(back.code, back.err).toBe(0);
    expect(back.signedIn).toBe(true);
    expect(back.err).toContain(`is at ${there.url}, not at ${here.url}: signing in again`);
    expect(signIns(here)).toBe(hereBefore + 1);
    expect(kept()[org.url]).toMatchObject({ issuer: here.url, identity: bobHere });
    // And that browser sign-in is kept in turn.
    const again = await asBob(['review'], here.url);
    expect(again.code, again.err).toBe(0);
    expect(signIns(here)).toBe(hereBefore + 1);
  });

  it('an ended token, a token the organization refuses, one kept for another organization at that address, and a file others may read each ask again', async () => {
    const cases: Array<[string, (k: Kept) => void, string]> = [
      ['ended', (k) => void (k.expires_at = Date.now() - 1000), 'ended at '],
      // A token whose signature does not hold: the organization answers 401.
      ['refused', (k) => void (k.access_token = `${k.access_token.slice(0, -4)}${k.access_token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`), 'is refused by the organization'],
      ['another organization', (k) => void (k.org = 'O'.repeat(43)), `was for the organization ${'O'.repeat(43)}, and ${org.url} answers as ${org.deploymentId} now`],
    ];
    for (const [name, change, said] of cases) {
      alterKept(change);
      const before = signIns(here);
      const run = await asBob(['review'], here.url, { password: true });
      expect(run.code, `${name}: ${run.err}`).toBe(0);
      expect(run.err, name).toContain(`the sign-in kept for ${org.url} ${said}`);
      expect(signIns(here), name).toBe(before + 1);
      expect(kept()[org.url]!.expires_at, name).toBeGreaterThan(Date.now());
    }
    // A file others may read is not trusted with the sign-in: it is not used, and the new sign-in replaces it with one that is bob's alone.
    chmodSync(SESSIONS, 0o644);
    const before = signIns(here);
    const loose = await asBob(['review'], here.url, { password: true });
    expect(loose.code, loose.err).toBe(0);
    expect(signIns(here)).toBe(before + 1);
    expect(statSync(SESSIONS).mode & 0o777).toBe(0o600);
  });

  it("another organization's address never gets the kept token: the command asks bob to sign in, and nothing reaches its /rpc", async () => {
    const token = kept()[org.url]!.access_token;
    // Answers its health as the organization does, and records whatever else it is sent.
    const lookalike = await HostileHttp.start((req, res) => {
      if (req.url === '/health') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, deployment_id: org.deploymentId, trusted_issuers: [here.url] }));
      lookalike.hits.push(`authorization ${req.headers.authorization ?? ''}`);
      res.writeHead(404).end();
    });
    try {
      const run = await gateCommand(['org', 'review', '--url', lookalike.url, '--issuer', here.url, '--no-browser', '--timeout', '1'], '', env);
      expect(run.code).toBe(1);
      expect(run.err).toContain('Sign in in your browser');
      expect(lookalike.hits).toEqual(['GET /health']);
      expect(lookalike.hits.join('\n')).not.toContain(token);
    } finally {
      await lookalike.stop();
    }
  });

  it('gate org sign-out forgets the sign-in and revokes it at its issuer; the next review asks again', async () => {
    const ended = signInsEnded(here).length;
    const out = await gateCommand(['org', 'sign-out', '--url', org.url], '', env);
    expect(out.code, out.err).toBe(0);
    expect(out.out).toContain(`signed out of the organization ${org.deploymentId} at ${org.url}: the sign-in of ${BOB} (${bobHere}) is forgotten here and its token revoked at ${here.url}`);
    expect(existsSync(SESSIONS)).toBe(false);
    expect(signInsEnded(here).slice(ended)).toEqual(['logout']);
    const none = await gateCommand(['org', 'sign-out', '--url', org.url], '', env);
    expect(none.out).toBe(`no sign-in is kept for ${org.url}\n`);
    const asked = await gateCommand(['org', 'review', '--url', org.url, '--issuer', here.url, '--no-browser', '--timeout', '1'], '', env);
    expect(asked.code).toBe(1);
    expect(asked.err).toContain('Sign in in your browser');
  });

  it('gate org sign-in signs in anew whatever is kept, names bob by his email, and keeps the sign-in; --email naming another person asks again', async () => {
    const before = signIns(here);
    const first = await asBob(['sign-in'], here.url, { password: true });
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`signed in at ${here.url} as ${BOB}, known to the organization as ${bobHere}: role reviewer at the organization ${org.deploymentId}`);
    expect(first.out).toMatch(/kept until \S+ \(its token's end\)/);
    const second = await asBob(['sign-in', '--json'], here.url, { password: true });
    expect(JSON.parse(second.out)).toMatchObject({ issuer: here.url, you: { identity: bobHere, role: 'reviewer', kind: 'person' }, person: { email: BOB, name: null }, kept_until: expect.any(String) });
    expect(signIns(here)).toBe(before + 2);
    const carol = 'carol@example.test';
    await addPersonWithCli(here, carol, PASSWORD, 'reader');
    const asCarol = await gateCommand(['org', 'review', '--url', org.url, '--issuer', here.url, '--email', carol, '--password-stdin'], `${PASSWORD}\n`, env);
    expect(asCarol.err).toContain(`the sign-in kept for ${org.url} is ${BOB}'s, not ${carol}'s: signing in again`);
    expect(signIns(here)).toBe(before + 3);
    // carol is a reader there: refused, and the sign-in kept is hers now.
    expect(asCarol.code).toBe(1);
    expect(kept()[org.url]).toMatchObject({ email: carol });
  });
});
