import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackRedirect } from '../../src/cli/loopback-redirect.js';

/** The command line's loopback listener (RFC 8252 7.3): only its own sign-in's state is taken. */
let redirect: LoopbackRedirect | undefined;
afterEach(() => redirect?.close());

describe('LoopbackRedirect', () => {
  it('listens on 127.0.0.1 at a port of its own, at /callback', async () => {
    redirect = await LoopbackRedirect.listen('s1', 'Go back to the terminal.');
    expect(redirect.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  });

  it('another state, path or method is 404 and the wait goes on; the right state gives the code', async () => {
    redirect = await LoopbackRedirect.listen('the-state', 'Go back to the terminal to read the row and sign it.');
    const waiting = redirect.code(10_000);
    const base = redirect.redirectUri;
    expect((await fetch(`${base}?code=stolen&state=other`)).status).toBe(404);
    expect((await fetch(`${base}?code=stolen`)).status).toBe(404);
    expect((await fetch(`${base.replace('/callback', '/elsewhere')}?code=stolen&state=the-state`)).status).toBe(404);
    expect((await fetch(`${base}?code=stolen&state=the-state`, { method: 'POST' })).status).toBe(404);
    const ok = await fetch(`${base}?code=the-code&state=the-state`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(await waiting).toBe('the-code');
  });

  it('an error sent back with the state ends the wait with it; no sign-in in time ends it too', async () => {
    redirect = await LoopbackRedirect.listen('st', 'Go back to the terminal.');
    const waiting = redirect.code(10_000).catch((error: Error) => error);
    expect((await fetch(`${redirect.redirectUri}?error=access_denied&state=st`)).status).toBe(400);
    expect(String(await waiting)).toContain('access_denied');
    redirect.close();
    redirect = await LoopbackRedirect.listen('st2', 'Go back to the terminal.');
    await expect(redirect.code(50)).rejects.toThrow('nobody signed in');
  });

  it('the landing page says what the command that signed in does next, not another command\'s step', async () => {
    const next = 'Go back to the terminal: it says who the organization takes you for.';
    redirect = await LoopbackRedirect.listen('org', next);
    const waiting = redirect.code(10_000);
    const page = await (await fetch(`${redirect.redirectUri}?code=c&state=org`)).text();
    expect(page).toContain(`<p>Signed in. ${next}</p>`);
    expect(page).not.toContain('read and sign');
    expect(await waiting).toBe('c');
  });

  it('a redirect read by the command itself is taken only when it names this listener and this state', async () => {
    redirect = await LoopbackRedirect.listen('mine', 'Go back to the terminal.');
    expect(redirect.codeFromLocation(`${redirect.redirectUri}?code=c1&state=mine`, 'mine')).toBe('c1');
    expect(() => redirect!.codeFromLocation(`${redirect!.redirectUri}?code=c1&state=theirs`, 'mine')).toThrow('not to this command');
    expect(() => redirect!.codeFromLocation(`http://127.0.0.1:1/callback?code=c1&state=mine`, 'mine')).toThrow('not to this command');
  });
});
