import { describe, expect, it } from 'vitest';
import { CLIENT_ID, form, refreshCookieOf, signIn } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

// /oauth/token and /oauth/logout use the person's gate_refresh cookie: a browser page may
// reach them only from the gate's own origins or a listed app origin (the browser tests show
// why: a page on another port of the same host gets the SameSite=Lax cookie sent).

const CONSOLE = 'https://console.example.test';
const { gate: server } = useGate({ kind: 'in-process', settings: { 'auth.app_origins': [CONSOLE] } });

const withCookie = (token: string, origin: string | undefined, fields: Record<string, string>) => {
  const f = form(fields);
  return { ...f, headers: { ...f.headers, cookie: `gate_refresh=${token}`, ...(origin === undefined ? {} : { origin }) } };
};
const refresh = (token: string, origin?: string) => server.http('POST', '/oauth/token', withCookie(token, origin, { grant_type: 'refresh_token', client_id: CLIENT_ID }));
const logout = (token: string, origin?: string) => server.http('POST', '/oauth/logout', withCookie(token, origin, { refresh_token: token }));

const FOREIGN = ['null', 'http://127.0.0.1:1', 'https://evil.example'];

describe('the session routes serve only the gate’s own pages and listed app origins', () => {
  it('/oauth/token: a foreign Origin is refused 400 invalid_request, and the token is neither spent nor cleared', async () => {
    const person = await signIn(server, { role: 'reader' });
    for (const origin of FOREIGN) {
      const res = await refresh(person.refreshToken, origin);
      expect(res.status, origin).toBe(400);
      expect(res.json, origin).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('may not use this gate') });
      expect(res.headers.getSetCookie(), origin).toEqual([]);
    }
    // Unspent: the same token still rotates (a spent one would end the family as reuse).
    expect((await refresh(person.refreshToken)).status).toBe(200);
  });

  it("/oauth/token: the gate's own origins under each loopback name, a listed origin, and no Origin (a program) are served", async () => {
    const port = new URL(server.url).port;
    let token = (await signIn(server, { role: 'reader' })).refreshToken;
    for (const origin of [undefined, server.url, `http://localhost:${port}`, `http://[::1]:${port}`, CONSOLE]) {
      const res = await refresh(token, origin);
      expect(res.status, origin).toBe(200);
      token = refreshCookieOf(res.headers)!;
    }
  });

  it('/oauth/logout: a foreign Origin is refused 400 and the session goes on; from the gate itself it ends', async () => {
    const person = await signIn(server, { role: 'reader' });
    for (const origin of FOREIGN) {
      const res = await logout(person.refreshToken, origin);
      expect(res.status, origin).toBe(400);
      expect(res.json.error, origin).toBe('invalid_request');
      expect(res.headers.getSetCookie(), origin).toEqual([]);
    }
    const ended = await logout(person.refreshToken, server.url);
    expect(ended.json).toEqual({ signed_out: true, forgotten: true });
    expect((await refresh(person.refreshToken)).json.error).toBe('invalid_grant');
  });
});
