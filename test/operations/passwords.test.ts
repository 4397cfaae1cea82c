import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, uniqueText } from '../harness/gate-process.js';
import { gateCommand } from '../harness/gate-command.js';
import { authorizeFields, form, pkcePair, signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

/**
 * A person's password changed by themselves (gv.password_change) and reset by the operator
 * (`gate people reset`: a password asked twice, or a one-time link), each keeping the person
 * who they are: the same identity, role, grants and past signatures; each journaled; the
 * sessions the old password opened ended.
 */
// Wrong passwords slow and refuse early here (auth.login_*), so the throttle is met in a few tries.
const { gate, keys: { agent } } = useGate({ kind: 'in-process', keys: { agent: 'agent' }, env: { GATE_AUTH_LOGIN_SLOW_AFTER: '3', GATE_AUTH_LOGIN_REFUSE_AFTER: '3', GATE_AUTH_LOGIN_DELAY_MS: '1' } });
let pat: SignedInPerson;
let signed: string;

/** The sign-in form's answer: 303 for the right email and password, 200 (the form again) otherwise. */
async function signInStatus(email: string, password: string): Promise<number> {
  const fields = authorizeFields(gate, pkcePair().challenge);
  return (await gate.http('POST', '/oauth/authorize', form({ ...fields, email, password }))).status;
}

const refresh = (token: string) =>
  gate.http('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: token, client_id: 'gate-console' }));

beforeAll(async () => {
  pat = await signIn(gate, { role: 'reviewer', email: 'pat@example.test', password: 'first password 1' });
  expect((await gate.socket('gv.space_create', { name: 'team', policy: 'human' })).error).toBeUndefined();
  expect((await gate.socket('gv.grant', { action: 'issue', grants: [{ principal: pat.identity, space: 'team', capabilities: ['read', 'contribute'] }] })).error).toBeUndefined();
  signed = (await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('signed by pat'), workarea: 'pw', kind: 'memory', source_uri: 'test://pw' })).result.artifact_id;
  await gate.readBody(pat.accessToken, signed);
  expect((await gate.rpc(pat.accessToken, 'gv.sign', { artifact_id: signed, decision: 'approve' })).error).toBeUndefined();
});

/** The person as the gate knows them: identity and role, grants, and that their signature on the row is still theirs. */
async function stillPat(): Promise<void> {
  const people = (await gate.socket('gv.people')).result.people as Array<{ email?: string; identity: string; role: string; signs_in_here: boolean }>;
  expect(people.filter((p) => p.email === 'pat@example.test')).toEqual([expect.objectContaining({ identity: pat.identity, role: 'reviewer', signs_in_here: true })]);
  expect((await gate.socket('gv.grants', { principal: pat.identity })).result.grants).toEqual([expect.objectContaining({ space: 'team', capabilities: ['read', 'contribute'] })]);
  const why = (await gate.socket('gv.why', { artifact_id: signed })).result;
  expect(why.events.some((e: { type: string; by: string; verified: boolean }) => e.type === 'manual-sign' && e.by === pat.identity && e.verified)).toBe(true);
}

describe("a person's own password change", () => {
  it('needs the current password, keeps this session, ends the others, and is journaled', async () => {
    // A second session of pat's (another device).
    const second = pkcePair();
    const fields = authorizeFields(gate, second.challenge);
    const posted = await gate.http('POST', '/oauth/authorize', form({ ...fields, email: 'pat@example.test', password: 'first password 1' }));
    const code = new URL(posted.headers.get('location')!).searchParams.get('code')!;
    const device = await gate.http('POST', '/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: second.verifier, client_id: 'gate-console', redirect_uri: fields['redirect_uri']! }));
    const deviceRefresh = /gate_refresh=([^;]*)/.exec(device.headers.getSetCookie().join('\n'))![1]!;

    const wrong = await gate.rpc(pat.accessToken, 'gv.password_change', { current: 'not it', password: 'second password 2' });
    expect(wrong.error).toMatchObject({ code: -32602, data: { field: 'current', reason: 'wrong_password' } });
    const changed = await gate.rpc(pat.accessToken, 'gv.password_change', { current: 'first password 1', password: 'second password 2' });
    expect(changed.result).toMatchObject({ identity: pat.identity, changed: true, event_id: expect.stringMatching(/^[0-9a-f]{64}$/) });

    expect(await signInStatus('pat@example.test', 'first password 1')).toBe(200);
    expect(await signInStatus('pat@example.test', 'second password 2')).toBe(303);
    expect((await refresh(deviceRefresh)).status).toBe(400);
    const own = await refresh(pat.refreshToken);
    expect(own.status, own.text).toBe(200);
    pat = { ...pat, accessToken: own.json.access_token, refreshToken: /gate_refresh=([^;]*)/.exec(own.headers.getSetCookie().join('\n'))![1]!, password: 'second password 2' };
    await stillPat();
    const chain = (await gate.socket('gv.audit_chain')).result;
    expect(chain.types['person-password-set']).toBe(1);
  });

  it('counts wrong current passwords per person: past auth.login_refuse_after even the right one is refused for a while', async () => {
    const sam = await signIn(gate, { role: 'reader', email: 'sam@example.test', password: 'sams password 1' });
    for (let i = 0; i < 3; i++) {
      expect((await gate.rpc(sam.accessToken, 'gv.password_change', { current: `wrong ${i}`, password: 'sams password 2' })).error?.data).toMatchObject({ reason: 'wrong_password' });
    }
    const refused = await gate.rpc(sam.accessToken, 'gv.password_change', { current: 'sams password 1', password: 'sams password 2' });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'throttled', retry_after_s: expect.any(Number) } });
    expect(await signInStatus('sam@example.test', 'sams password 1')).toBe(303);
  });

  it('is for people who sign in here: an API key and the socket are refused', async () => {
    expect((await gate.rpc(agent.key, 'gv.password_change', { current: 'x', password: 'long enough' })).error?.data).toMatchObject({ reason: 'not_a_person' });
    expect((await gate.socket('gv.password_change', { current: 'x', password: 'long enough' })).error?.data).toMatchObject({ reason: 'not_a_person' });
  });
});

describe('gate people reset', () => {
  it('sets a new password read from stdin, keeping the identity; the old sessions end', async () => {
    const reset = await gateCommand(['people', 'reset', 'pat@example.test', '--password-stdin', '--home', gate.home], 'third password 3\n');
    expect(reset.code, reset.err).toBe(0);
    expect(reset.out).toMatch(new RegExp(`^password of pat@example\\.test reset \\(${pat.identity.replace(/[|.]/g, '\\$&')}: the same identity, grants and signatures; their sign-in sessions ended\\); event [0-9a-f]{64}\\n$`));
    expect(await signInStatus('pat@example.test', 'second password 2')).toBe(200);
    expect(await signInStatus('pat@example.test', 'third password 3')).toBe(303);
    expect((await refresh(pat.refreshToken)).status).toBe(400);
    await stillPat();
  });

  it('asks the new password twice on a terminal, without echo, and changes nothing when they differ', async () => {
    const run = (first: string, second: string) =>
      new Promise<{ code: number | null; screen: string }>((resolve) => {
        const child = spawn('script', ['-qfec', `${process.execPath} ${CLI} people reset pat@example.test --home ${gate.home}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
        let screen = '';
        let typed = 0;
        child.stdout.on('data', (c) => {
          screen += c;
          if (typed === 0 && screen.includes('Password for pat@example.test: ')) child.stdin.write(`${first}\r`), (typed = 1);
          if (typed === 1 && screen.includes('The same password again: ')) child.stdin.write(`${second}\r`), (typed = 2);
        });
        child.on('exit', (code) => resolve({ code, screen }));
      });
    const differ = await run('fourth password 4', 'fourth password 5');
    expect(differ.code).toBe(1);
    expect(differ.screen).toContain('the two passwords differ; nothing was changed');
    expect(await signInStatus('pat@example.test', 'third password 3')).toBe(303);
    const same = await run('fourth password 4', 'fourth password 4');
    expect(same.code).toBe(0);
    expect(same.screen).not.toContain('fourth password');
    expect(await signInStatus('pat@example.test', 'fourth password 4')).toBe(303);
  });

  it('--link prints a one-time link: its page sets the password once, from this gate only', async () => {
    const issued = await gateCommand(['people', 'reset', 'pat@example.test', '--link', '--home', gate.home]);
    expect(issued.code, issued.err).toBe(0);
    const link = new URL(/^(http\S+\/oauth\/reset\?token=[\w-]{43})$/m.exec(issued.out)![1]!);
    const path = `${link.pathname}${link.search}`;
    const token = link.searchParams.get('token')!;
    // Until used, the old password still works.
    expect(await signInStatus('pat@example.test', 'fourth password 4')).toBe(303);
    const page = await gate.http('GET', path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('For pat@example.test at this gate.');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      gate.http('POST', '/oauth/reset', { raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
    expect((await post({ token, password: 'fifth password 5', again: 'fifth password 5' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(400);
    const differ = await post({ token, password: 'fifth password 5', again: 'fifth password 6' });
    expect(differ.text).toContain('The two passwords differ.');
    const set = await post({ token, password: 'fifth password 5', again: 'fifth password 5' });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Your password is set');
    expect(await signInStatus('pat@example.test', 'fourth password 4')).toBe(200);
    expect(await signInStatus('pat@example.test', 'fifth password 5')).toBe(303);
    const again = await gate.http('GET', path);
    expect(again.status).toBe(400);
    expect(again.text).toContain('This link is used, expired, or not one this gate gave.');
    await stillPat();
    const chain = (await gate.socket('gv.audit_chain')).result;
    // changed once, reset twice, a link issued and used.
    expect(chain.types['person-password-set']).toBe(5);
  });

  it('says who is unknown, and refuses --link with --password-stdin', async () => {
    const unknown = await gateCommand(['people', 'reset', 'nobody@example.test', '--password-stdin', '--home', gate.home], 'whatever pw 1\n');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('nobody signs in here with email nobody@example.test');
    const both = await gateCommand(['people', 'reset', 'pat@example.test', '--link', '--password-stdin', '--home', gate.home]);
    expect(both.code).toBe(3);
  });
});
