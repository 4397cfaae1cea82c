import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gateCommand } from '../harness/gate-command.js';
import { HostileHttp } from '../harness/hostile-server.js';

/**
 * Where `gate org sign-in --password-stdin` and `gate sign --password-stdin` send a person's
 * password (docs/organization.md "People at the organization from the terminal"): only to the
 * issuer the person named, at its own origin, over https unless it is on loopback. A fake
 * organization announces an issuer at its unauthenticated GET /health; that issuer's discovery
 * sends sign-ins to another origin, which records every request it gets. The real CLI runs
 * against them; the other origin must hear nothing.
 */
const PASSWORD = 'a password that must stay home';
const EMAIL = 'alice@example.com';
const ARTIFACT = `sha256:${'a'.repeat(64)}`;

let elsewhere: HostileHttp;
let issuer: HostileHttp;
let org: HostileHttp;
/** What the issuer's discovery says this time (the test changes it). */
let discovery: (own: string) => Record<string, unknown>;
/** Whom the fake organization says it trusts, at GET /health. */
let trusted: () => string[] = () => [issuer.url];

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeAll(async () => {
  // Takes whatever it is sent, as the fake organization's accomplice would: a 303 with a code.
  elsewhere = await HostileHttp.start((req: IncomingMessage, res: ServerResponse, body: string) => {
    elsewhere.hits.push(`body ${body}`);
    res.writeHead(303, { location: 'http://127.0.0.1:9/callback?code=stolen' }).end();
  });
  issuer = await HostileHttp.start((req, res) => {
    if (req.url === '/.well-known/openid-configuration') return json(res, 200, discovery(issuer.url));
    json(res, 404, { error: 'no' });
  });
  org = await HostileHttp.start((req, res) => {
    if (req.url === '/health') return json(res, 200, { ok: true, deployment_id: 'O'.repeat(43), trusted_issuers: trusted() });
    json(res, 404, { error: 'no' });
  });
  discovery = (own) => ({ issuer: own, authorization_endpoint: `${elsewhere.url}/authorize`, token_endpoint: `${elsewhere.url}/token`, jwks_uri: `${own}/jwks` });
});
afterAll(async () => {
  await Promise.all([elsewhere?.stop(), issuer?.stop(), org?.stop()]);
});

const orgSignIn = (extra: string[] = [], env: Record<string, string> = {}) => gateCommand(['org', 'sign-in', '--url', org.url, '--email', EMAIL, '--password-stdin', ...extra], `${PASSWORD}\n`, env);
const nothingSentElsewhere = () => {
  expect(elsewhere.hits).toEqual([]);
  expect([...issuer.hits, ...org.hits].join('\n')).not.toContain('password');
};

describe('gate org sign-in sends a password only to the issuer the person named', () => {
  it("never to the issuer an organization announces: without --issuer, a script is told to name it, and the announced issuer is not even asked", async () => {
    const run = await orgSignIn();
    expect(run.code).toBe(3);
    expect(run.err).toContain(`gate org sign-in: name the issuer you sign in at with --issuer (or GATE_ORG_ISSUER): the organization at ${org.url} says its people sign in at`);
    expect(run.err).toContain('this command sends your password only to an issuer you named or confirmed');
    expect(issuer.hits).toEqual([]);
    nothingSentElsewhere();
  });

  it("named, the issuer's sign-in must be on its own origin: a discovery that points elsewhere is refused before anything is sent", async () => {
    const run = await orgSignIn(['--issuer', issuer.url]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`names its authorization_endpoint at ${elsewhere.url}/authorize, not on ${issuer.url}: this command sends a person's password, code and token only to the issuer's own origin`);
    expect(issuer.hits).toEqual(['GET /.well-known/openid-configuration']);
    nothingSentElsewhere();
  });

  it('the same through the environment (GATE_ORG_ISSUER), and a revocation endpoint elsewhere is refused too', async () => {
    discovery = (own) => ({ issuer: own, authorization_endpoint: `${own}/authorize`, token_endpoint: `${own}/token`, revocation_endpoint: `${elsewhere.url}/logout` });
    try {
      const run = await orgSignIn([], { GATE_ORG_ISSUER: issuer.url });
      expect(run.code).toBe(1);
      expect(run.err).toContain(`names its revocation_endpoint at ${elsewhere.url}/logout, not on ${issuer.url}`);
      nothingSentElsewhere();
    } finally {
      discovery = (own) => ({ issuer: own, authorization_endpoint: `${elsewhere.url}/authorize`, token_endpoint: `${elsewhere.url}/token`, jwks_uri: `${own}/jwks` });
    }
  });

  it('an issuer over plain http off this machine is refused before it is asked anything', async () => {
    trusted = () => [issuer.url, 'http://issuer.example'];
    try {
      const run = await orgSignIn(['--issuer', 'http://issuer.example']);
      expect(run.code).toBe(3);
      expect(run.err).toContain("http://issuer.example: an issuer is reached over https (plain http only on this machine's loopback)");
      nothingSentElsewhere();
    } finally {
      trusted = () => [issuer.url];
    }
  });

  it("a discovery document that names another issuer than the one asked is refused", async () => {
    discovery = () => ({ issuer: elsewhere.url, authorization_endpoint: `${elsewhere.url}/authorize`, token_endpoint: `${elsewhere.url}/token` });
    try {
      const run = await orgSignIn(['--issuer', issuer.url]);
      expect(run.code).toBe(1);
      expect(run.err).toContain(`discovery document names another issuer (${elsewhere.url})`);
      nothingSentElsewhere();
    } finally {
      discovery = (own) => ({ issuer: own, authorization_endpoint: `${elsewhere.url}/authorize`, token_endpoint: `${elsewhere.url}/token`, jwks_uri: `${own}/jwks` });
    }
  });
});

describe('gate sign, which shares the discovery, holds the same rule', () => {
  it("a gate whose discovery sends sign-ins to another origin gets no password", async () => {
    const run = await gateCommand(['sign', ARTIFACT, '--url', issuer.url, '--email', EMAIL, '--password-stdin', '--yes'], `${PASSWORD}\n`);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`gate sign: ${issuer.url}'s discovery document names its authorization_endpoint at ${elsewhere.url}/authorize, not on ${issuer.url}`);
    nothingSentElsewhere();
  });

  it('a gate over plain http off this machine is refused before it is asked anything', async () => {
    const run = await gateCommand(['sign', ARTIFACT, '--url', 'http://gate.example', '--email', EMAIL, '--password-stdin', '--yes'], `${PASSWORD}\n`);
    expect(run.code).toBe(3);
    expect(run.err).toContain("gate sign: http://gate.example: an issuer is reached over https (plain http only on this machine's loopback)");
    nothingSentElsewhere();
  });
});

