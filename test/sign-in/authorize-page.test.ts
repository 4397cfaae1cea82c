import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { useGate } from '../harness/use-gate.js';

const CONSOLE = 'https://console.example.test';
const email = 'page@example.test';
const password = 'the page test password';

const { gate } = useGate({ kind: 'in-process', env: { GATE_AUTH_APP_ORIGINS: CONSOLE } });
beforeAll(async () => {
  await gate.socket('gv.person_add', { email, password, role: 'reader' });
});

const fields = (extra: Record<string, string> = {}) => authorizeFields(gate, pkcePair().challenge, extra);
const get = (f: Record<string, string>) => gate.http('GET', `/oauth/authorize?${new URLSearchParams(f)}`);

describe('GET /oauth/authorize: the sign-in page', () => {
  it('is an HTML form of email and password only, with no script, under a strict content policy', async () => {
    const res = await get(fields());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self' http:\/\/127\.0\.0\.1:\d+; frame-ancestors 'none'; base-uri 'none'$/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text).not.toMatch(/<script|<link|<img|<iframe|https?:\/\/(?!127\.0\.0\.1)/i);
    const visible = [...res.text.matchAll(/<input (?![^>]*type="hidden")[^>]*name="([^"]+)"/g)].map((m) => m[1]);
    expect(visible).toEqual(['email', 'password']);
  });

  const malformed: Array<[string, Record<string, string | undefined>, RegExp]> = [
    ['no response_type', { response_type: undefined }, /response_type is required/],
    ['no client_id', { client_id: undefined }, /client_id is required/],
    ['no redirect_uri', { redirect_uri: undefined }, /redirect_uri is required/],
    ['no state', { state: undefined }, /state is required/],
    ['no code_challenge', { code_challenge: undefined }, /code_challenge is required/],
    ['no code_challenge_method', { code_challenge_method: undefined }, /code_challenge_method is required/],
    ['response_type token', { response_type: 'token' }, /response_type must be code/],
    ['an unknown client', { client_id: 'someone-else' }, /is not a client of this gate/],
    ['a redirect_uri elsewhere', { redirect_uri: 'https://evil.example/app' }, /redirect_uri is not allowed/],
    ['a redirect_uri on this gate but not /app', { redirect_uri: 'REPLACE/oauth/token' }, /redirect_uri is not allowed/],
    ['method plain', { code_challenge_method: 'plain' }, /code_challenge_method must be S256/],
    ['a challenge that is no SHA-256', { code_challenge: 'abc' }, /code_challenge must be the base64url SHA-256/],
    ['an unknown scope', { scope: 'openid admin' }, /scope admin is not offered/],
  ];
  for (const [name, change, why] of malformed) {
    it(`${name}: 400 said on the page, never redirected`, async () => {
      const f: Record<string, string> = fields();
      for (const [k, v] of Object.entries(change)) {
        if (v === undefined) delete f[k];
        else f[k] = v.replace('REPLACE', gate.url);
      }
      const res = await get(f);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toMatch(why);
      expect(res.text).not.toContain('<form');
    });
  }

  it('a field given twice is refused', async () => {
    const res = await gate.http('GET', `/oauth/authorize?${new URLSearchParams(fields())}&state=second`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/state is given more than once/);
  });

  it("the gate's /app under each loopback name at its port is an allowed redirect_uri; another port or address is not", async () => {
    const port = new URL(gate.url).port;
    for (const base of [`http://localhost:${port}`, `http://[::1]:${port}`]) {
      const res = await get(fields({ redirect_uri: `${base}/app` }));
      expect(res.status, base).toBe(200);
      expect(res.headers.get('content-security-policy'), base).toContain(`form-action 'self' ${base};`);
    }
    for (const uri of [`http://localhost:${Number(port) + 1}/app`, `http://127.0.0.2:${port}/app`, `https://localhost:${port}/app`, `http://localhost:${port}/oauth/token`]) {
      const res = await get(fields({ redirect_uri: uri }));
      expect(res.status, uri).toBe(400);
      expect(res.text, uri).toMatch(/redirect_uri is not allowed/);
    }
  });

  it("a listed console origin's /app is an allowed redirect_uri, and the form may post there", async () => {
    const res = await get(fields({ redirect_uri: `${CONSOLE}/app` }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(`form-action 'self' ${CONSOLE};`);
  });

  it('what a request carries is escaped into the page, never interpreted', async () => {
    const res = await get(fields({ state: '"><script>alert(1)</script>' }));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('POST /oauth/authorize', () => {
  it('303 to redirect_uri with code and state on the right password', async () => {
    const f = fields({ redirect_uri: `${CONSOLE}/app` });
    const res = await gate.http('POST', '/oauth/authorize', form({ ...f, email, password }));
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${CONSOLE}/app`);
    expect([...location.searchParams.keys()].sort()).toEqual(['code', 'state']);
    expect(location.searchParams.get('state')).toBe(f['state']);
    expect(res.text).toBe('');
  });

  it('the same one line, status and page for a wrong password and an unknown email', async () => {
    const f = fields();
    const wrong = await gate.http('POST', '/oauth/authorize', form({ ...f, email, password: 'not it' }));
    const unknown = await gate.http('POST', '/oauth/authorize', form({ ...f, email: 'nobody@example.test', password: 'not it' }));
    expect(wrong.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(wrong.text).toContain('The email or password is not right.');
    expect(unknown.text.replace('nobody@example.test', email)).toBe(wrong.text);
  });

  it('an email that differs only in case and space signs in the same person', async () => {
    const res = await gate.http('POST', '/oauth/authorize', form({ ...fields(), email: `  ${email.toUpperCase()} `, password }));
    expect(res.status).toBe(303);
  });

  it('a malformed request is said on the page with 400, even with a right password', async () => {
    const res = await gate.http('POST', '/oauth/authorize', form({ ...fields({ redirect_uri: 'https://evil.example/app' }), email, password }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  const postWith = (headers: Record<string, string>, extra: Record<string, string> = {}) => {
    const f = form({ ...fields(extra), email, password });
    return gate.http('POST', '/oauth/authorize', { ...f, headers: { ...f.headers, ...headers } });
  };

  // Each header alone refuses: a browser sends both, and either one naming another site is enough.
  const foreign: Array<[string, Record<string, string>]> = [
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['an Origin of another port on loopback', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null (a sandboxed frame, or a page withholding its origin)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (another port of the same host)', { 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: none (no page at all posted it)', { 'sec-fetch-site': 'none' }],
    ["Sec-Fetch-Site: cross-site with the gate's own Origin", { 'sec-fetch-site': 'cross-site', origin: 'ORIGIN' }],
  ];
  for (const [name, headers] of foreign) {
    it(`a form posted with ${name} is refused, even with the right password`, async () => {
      const res = await postWith(Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('ORIGIN', gate.url)])));
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.text).toMatch(/posted from another site/);
    });
  }

  it("the gate's own page under each loopback name signs in: Origin and Sec-Fetch-Site as a browser sends them", async () => {
    const port = new URL(gate.url).port;
    for (const base of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const res = await postWith({ origin: base, 'sec-fetch-site': 'same-origin' }, { redirect_uri: `${base}/app` });
      expect(res.status, base).toBe(303);
      expect(new URL(res.headers.get('location')!).origin, base).toBe(base);
    }
  });

  it('the page asks the browser to send its origin to this gate only (referrer policy same-origin)', async () => {
    const res = await get(fields());
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.text).toContain('<meta name="referrer" content="same-origin">');
  });

  it('missing email or password: the page again with 400', async () => {
    const res = await gate.http('POST', '/oauth/authorize', form({ ...fields(), email }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('<form');
  });
});
