import { beforeAll, describe, expect, it } from 'vitest';
import { form, refreshCookieOf, signIn, type SignedInPerson } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process' });

const refreshByField = (token: string) => server.http('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: token, client_id: 'gate-console' }));
const refreshByCookie = (token: string) =>
  server.http('POST', '/oauth/token', { ...form({ grant_type: 'refresh_token' }), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `gate_refresh=${token}` } });

describe('POST /oauth/token, grant refresh_token: rotated on every use', () => {
  let person: SignedInPerson;
  beforeAll(async () => {
    person = await signIn(server, { role: 'agent' });
  });

  it('a refresh answers a new token set and a new refresh token, by field or by cookie', async () => {
    const first = await refreshByField(person.refreshToken);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String), id_token: expect.any(String) });
    const second = refreshCookieOf(first.headers)!;
    expect(second).not.toBe(person.refreshToken);
    const third = await refreshByCookie(second);
    expect(third.status).toBe(200);
    const next = refreshCookieOf(third.headers)!;
    expect(next).not.toBe(second);
    expect((await server.rpc(third.json.access_token, 'gv.describe')).result.you.identity).toBe(person.identity);
    person = { ...person, refreshToken: next };
  });

  it('neither cookie nor field: 200 {session: false}, nothing set', async () => {
    const res = await server.http('POST', '/oauth/token', form({ grant_type: 'refresh_token' }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ session: false });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('reusing a rotated token revokes the whole family (the newest token too) and is journaled', async () => {
    const victim = await signIn(server, { role: 'reader' });
    const rotated = await refreshByField(victim.refreshToken);
    const current = refreshCookieOf(rotated.headers)!;
    const reuse = await refreshByField(victim.refreshToken);
    expect(reuse.status).toBe(400);
    expect(reuse.json).toEqual({ error: 'invalid_grant', error_description: 'the refresh token was already used; the sign-in session is ended' });
    const afterReuse = await refreshByField(current);
    expect(afterReuse.json).toEqual({ error: 'invalid_grant', error_description: 'the sign-in session has ended' });
    const ended = server.journal('signin-ended').filter((e) => e.data['reason'] === 'refresh_reuse');
    expect(ended).toHaveLength(1);
    expect(ended[0]!.by).toBe(victim.identity);
  });

  it('a refused cookie is cleared; a refused field leaves cookies alone', async () => {
    const byCookie = await refreshByCookie('grt_' + 'A'.repeat(43));
    expect(byCookie.json.error).toBe('invalid_grant');
    expect(byCookie.headers.getSetCookie()[0]).toMatch(/^gate_refresh=; .*Max-Age=0/);
    const byField = await refreshByField('grt_' + 'A'.repeat(43));
    expect(byField.json).toEqual({ error: 'invalid_grant', error_description: 'the refresh token is unknown' });
    expect(byField.headers.getSetCookie()).toEqual([]);
    expect((await refreshByField('not-a-refresh-token')).json.error).toBe('invalid_grant');
  });

  it('a refresh token lasts 30 days from its issue (injected clock)', async () => {
    const p = await signIn(server, { role: 'reader' });
    server.clock.advance(30 * 86_400_000 - 60_000);
    const inside = await refreshByField(p.refreshToken);
    expect(inside.status).toBe(200);
    server.clock.advance(30 * 86_400_000 + 1);
    const past = await refreshByField(refreshCookieOf(inside.headers)!);
    expect(past.json).toEqual({ error: 'invalid_grant', error_description: 'the refresh token has expired' });
  });

  it('a refresh token issued to the console is refused to another client_id', async () => {
    const p = await signIn(server, { role: 'reader' });
    const res = await server.http('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: p.refreshToken, client_id: 'other' }));
    expect(res.json.error_description).toBe('the refresh token was issued to another client_id');
  });
});

describe('POST /oauth/logout', () => {
  it('forgets the named refresh token (its family) and clears the cookie', async () => {
    const p = await signIn(server, { role: 'reader' });
    const out = await server.http('POST', '/oauth/logout', form({ refresh_token: p.refreshToken }));
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ signed_out: true, forgotten: true });
    expect(out.headers.getSetCookie()[0]).toMatch(/^gate_refresh=; HttpOnly; SameSite=Lax; Path=\/oauth\/token; Max-Age=0/);
    expect((await refreshByField(p.refreshToken)).json.error).toBe('invalid_grant');
    const again = await server.http('POST', '/oauth/logout', { body: { refresh_token: p.refreshToken } });
    expect(again.json).toEqual({ signed_out: true, forgotten: false });
  });

  it('takes JSON too, and the access token of the session as bearer (the console cannot read its cookie)', async () => {
    const p = await signIn(server, { role: 'reader' });
    const out = await server.http('POST', '/oauth/logout', { key: p.accessToken, body: {} });
    expect(out.json).toEqual({ signed_out: true, forgotten: true });
    expect((await refreshByField(p.refreshToken)).json.error).toBe('invalid_grant');
    expect(server.journal('signin-ended').filter((e) => e.data['reason'] === 'logout').length).toBeGreaterThanOrEqual(1);
  });

  it('reads its body as strictly as every other door: a repeated key or parameter, or JSON not read whole, is 400 and forgets nothing', async () => {
    const p = await signIn(server, { role: 'reader' });
    const t = p.refreshToken;
    const json = 'application/json';
    const formType = 'application/x-www-form-urlencoded';
    const twice = 'a field is given more than once';
    const refusals: Array<[string, string, string]> = [
      // RFC 6749 3.2: a parameter MUST NOT be included more than once; JSON.parse alone would keep the last.
      [json, `{"refresh_token":"${t}","refresh_token":"rt_other"}`, twice],
      [json, `{"refresh_token":"${t}","refresh\\u005ftoken":"rt_other"}`, twice],
      [json, `{"refresh_token":"${t}","extra":{"a":1,"a":2}}`, twice],
      [formType, `refresh_token=${t}&refresh_token=rt_other`, twice],
      [formType, `token=${t}&refresh_token=${t}&token=${t}`, twice],
      [json, `{"refresh_token":"${t}"`, 'malformed'],
      [json, `["${t}"]`, 'malformed'],
      [json, `{"refresh_token":"${t}","note":"\\ud800"}`, 'malformed'],
      [json, `{"refresh_token":"${t}","deep":${'['.repeat(70)}${']'.repeat(70)}}`, 'malformed'],
    ];
    for (const [type, raw, why] of refusals) {
      const res = await server.http('POST', '/oauth/logout', { raw, headers: { 'content-type': type } });
      expect(res.status, raw).toBe(400);
      expect(res.json.error, raw).toBe('invalid_request');
      if (why === twice) expect(res.json.error_description, raw).toBe(twice);
      else expect(res.json.error_description, raw).toMatch(/JSON object read strictly/);
      expect(res.headers.getSetCookie(), raw).toEqual([]);
    }
    // The token door takes forms only (docs/protocol.md#the-sign-in-provider); JSON, with a repeated key or without, is refused there too.
    for (const raw of [`{"grant_type":"refresh_token","grant_type":"authorization_code","refresh_token":"${t}"}`, `{"grant_type":"refresh_token","refresh_token":"${t}"}`]) {
      const token = await server.http('POST', '/oauth/token', { raw, headers: { 'content-type': json } });
      expect(token.status, raw).toBe(400);
      expect(token.json.error, raw).toBe('invalid_request');
    }
    // Nothing was forgotten on a guess: the refresh token still refreshes.
    expect((await refreshByField(t)).status).toBe(200);
    // An empty JSON body names nothing, as no body does.
    expect((await server.http('POST', '/oauth/logout', { raw: '', headers: { 'content-type': json } })).json).toEqual({ signed_out: true, forgotten: false });
  });

  it('with nothing named it still signs out: forgotten false', async () => {
    expect((await server.http('POST', '/oauth/logout')).json).toEqual({ signed_out: true, forgotten: false });
  });
});
