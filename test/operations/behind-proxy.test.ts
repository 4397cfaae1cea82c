import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Agent, fetch, type Response } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GateProcess, ROOT } from '../harness/gate-process.js';
import { CLIENT_ID, freePort, pkcePair } from '../harness/sign-in.js';
import { nginxPath, NGINX_MISSING } from '../harness/ensure-nginx.mjs';
import { familyOf, parseMetrics, sampleSum } from '../harness/prometheus-text.js';

/**
 * The reverse proxy of docs/operations.md, run as written: a real nginx on loopback
 * terminating TLS in front of a gate configured as the manual says (trusted_proxies
 * 127.0.0.1, public_url and issuer the proxy's https URL). Clients come from distinct
 * addresses: loopback aliases (127.0.0.x) and, for "the internet", an address of this host
 * that is not loopback. What the operator saw is what is tested: strangers failing through
 * the proxy no longer lock everyone out, failures at a person's email do not lock out their
 * known browser, and the internet behind a proxy on the same host is no loopback caller.
 */

/** The nginx block between the markers of docs/operations.md, and the substitutions the test makes in it (each must match). */
function documentedProxyBlock(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const m = /<!-- nginx-proxy -->\s*```nginx\n([\s\S]*?)```\s*<!-- \/nginx-proxy -->/.exec(doc);
  if (m === null) throw new Error('docs/operations.md has no nginx block between <!-- nginx-proxy --> markers');
  return m[1]!;
}

function substitute(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`the documented nginx block no longer has ${String(from)}: update the test with the docs`);
  return out;
}

/** An IPv4 address of this host that is not loopback, if it has one. */
function externalAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/**
 * An IPv4 address of this host that is not loopback: where "the internet" comes from. A host
 * with none gets one on a dummy interface of its own when the test runs as root (a clean CI
 * machine may have only lo); any other account is told how.
 */
function outsideAddress(): string {
  const found = externalAddress();
  if (found !== null) return found;
  if (process.getuid?.() === 0) {
    execFileSync('ip', ['link', 'add', 'gate-test0', 'type', 'dummy'], { stdio: 'ignore' });
    execFileSync('ip', ['addr', 'add', '198.51.100.7/32', 'dev', 'gate-test0']);
    execFileSync('ip', ['link', 'set', 'gate-test0', 'up']);
    const added = externalAddress();
    if (added !== null) return added;
  }
  throw new Error(
    'this test needs one IPv4 address on the host that is not loopback (a client of the proxy that is not on loopback); ' +
      'the host has none: add one (e.g. "ip addr add 192.0.2.10/32 dev lo" as root) and run it again',
  );
}

function waitForPort(host: string, port: number, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > until) reject(new Error(`nothing listens on ${host}:${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * A gate, an nginx and sixty scrypt checks: seconds quiet, but the suite runs files side by
 * side on two cores, so the setup and the sign-in case get deadlines that fit what they do.
 */
const SETUP_MS = 180_000;
const CASE_MS = 180_000;

describe('a gate behind the documented nginx TLS proxy', () => {
  let dir: string;
  let nginx: ChildProcess | null = null;
  let nginxErrors = '';
  let gate: GateProcess;
  let proxyPort: number;
  let publicUrl: string;
  let outside: string;
  let ca: string;
  const agents = new Map<string, Agent>();

  /** A client of the proxy whose connections come from `from`: the address the proxy sees. */
  const client = (from: string) => {
    let agent = agents.get(from);
    if (agent === undefined) {
      // undici's own connector does not bind a local address: each connection is made here, from `from`.
      agent = new Agent({
        connect: (opts, done) => {
          const socket = tlsConnect({ host: opts.hostname, port: Number(opts.port), localAddress: from, ca, ALPNProtocols: ['http/1.1'] });
          socket.once('secureConnect', () => done(null, socket));
          socket.once('error', (error) => done(error, null));
          return socket;
        },
      });
      agents.set(from, agent);
    }
    return agent;
  };
  const via = (from: string, path: string, init: Parameters<typeof fetch>[1] = {}): Promise<Response> =>
    fetch(`https://${from.startsWith('127.') ? '127.0.0.1' : outside}:${proxyPort}${path}`, { ...init, dispatcher: client(from), redirect: 'manual' });

  beforeAll(async () => {
    if (!existsSync(nginxPath())) throw new Error(NGINX_MISSING);
    outside = outsideAddress();
    dir = mkdtempSync(join(tmpdir(), 'gate-proxy-'));
    const made = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', join(dir, 'privkey.pem'), '-out', join(dir, 'fullchain.pem'),
      '-subj', '/CN=gate.test', '-addext', `subjectAltName=IP:127.0.0.1,IP:${outside}`,
    ]);
    if (made.status !== 0) throw new Error(`openssl could not make the test certificate: ${made.stderr}`);
    ca = readFileSync(join(dir, 'fullchain.pem'), 'utf8');

    const gatePort = await freePort();
    proxyPort = await freePort();
    publicUrl = `https://127.0.0.1:${proxyPort}`;
    gate = await GateProcess.start({
      port: gatePort,
      env: {
        GATE_SERVER_HOST: '127.0.0.1',
        GATE_SERVER_TRUSTED_PROXIES: '127.0.0.1',
        GATE_SERVER_PUBLIC_URL: publicUrl,
        GATE_AUTH_ISSUER: publicUrl,
        // The lockout is what is tested here; the doubling delay before it would only make the test wait.
        GATE_AUTH_LOGIN_DELAY_MS: '0',
      },
    });

    let block = documentedProxyBlock();
    block = substitute(block, 'server 127.0.0.1:8480;', `server 127.0.0.1:${gatePort};`);
    block = substitute(block, /listen 443 ssl;\n\s*listen \[::\]:443 ssl;/, `listen 127.0.0.1:${proxyPort} ssl;\n    listen ${outside}:${proxyPort} ssl;`);
    block = substitute(block, '/etc/ssl/gate/fullchain.pem', join(dir, 'fullchain.pem'));
    block = substitute(block, '/etc/ssl/gate/privkey.pem', join(dir, 'privkey.pem'));
    const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        // As root, nginx's workers would switch to an account that cannot write this test's temp paths.
        process.getuid?.() === 0 ? 'user root;' : '',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
        block,
        '}',
      ].join('\n'),
    );
    nginx = spawn(nginxPath(), ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    nginx.stderr!.on('data', (d) => (nginxErrors += d));
    const exited = new Promise<never>((_, reject) => nginx!.once('exit', (code) => reject(new Error(`nginx exited ${code}: ${nginxErrors}`))));
    await Promise.race([waitForPort('127.0.0.1', proxyPort, 20_000), exited]);
  }, SETUP_MS);

  afterAll(async () => {
    // Destroyed, not closed: close() waits for every response body to be read, and a test that
    // reads only a status leaves its body unread (under the suite's load one such wait outlived
    // the hook's deadline).
    for (const agent of agents.values()) await agent.destroy();
    if (nginx !== null && nginx.exitCode === null) {
      const gone = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      // nginx stops at once on TERM; should it linger, it is killed rather than waited for.
      const lingering = setTimeout(() => nginx?.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(lingering);
    }
    await gate?.stop();
  }, SETUP_MS);

  it('answers /livez and /readyz through the proxy with no credential', async () => {
    const live = await via('127.0.0.2', '/livez');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ live: true });
    const ready = await via(outside, '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, degraded: false });
  });

  /** The sign-in form posted as a program does (no Origin), from `from`, with the cookies given. */
  const signInForm = async (from: string, email: string, password: string, cookie?: string) => {
    const { challenge } = pkcePair();
    const fields = {
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${publicUrl}/app`,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    return via(from, '/oauth/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie === undefined ? {} : { cookie }) },
      body: new URLSearchParams({ ...fields, email, password }).toString(),
    });
  };

  it("strangers failing through the proxy lock out only themselves, and failures at a person's email never lock out her known browser", async () => {
    const added = await gate.socket('gv.person_add', { email: 'carol@example.com', password: 'carol-right-password', role: 'reviewer' });
    expect(added.error).toBeUndefined();

    // What the operator saw: 40 wrong passwords for made-up emails through the proxy.
    for (let i = 0; i < 40; i++) {
      const wrong = await signInForm('127.0.0.2', `nobody${i}@example.com`, 'not-the-password');
      expect(wrong.status).toBe(200);
    }
    // That stranger is slowed and then refused (40 is 4x login_refuse_after for one client) ...
    expect((await signInForm('127.0.0.2', 'nobody-more@example.com', 'x-wrong-x')).status).toBe(429);
    // ... and Carol, at her own address, signs in.
    const carol = await signInForm('127.0.0.3', 'carol@example.com', 'carol-right-password');
    expect(carol.status).toBe(303);
    expect(new URL(carol.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const deviceCookie = carol.headers.getSetCookie().find((c) => c.startsWith('gate_device='))!;
    expect(deviceCookie).toBeDefined();
    expect(deviceCookie).toMatch(/; HttpOnly/);
    expect(deviceCookie).toMatch(/; SameSite=Strict/);
    expect(deviceCookie).toMatch(/; Path=\/oauth\/authorize/);
    // The public URL is https: the cookie travels over TLS only.
    expect(deviceCookie).toMatch(/; Secure/);
    const device = deviceCookie.split(';')[0]!;

    // Someone fails at Carol's email until it is locked for every browser she never signed in with.
    for (let i = 0; i < 10; i++) expect((await signInForm(outside, 'carol@example.com', `guess-${i}-wrong`)).status).toBe(200);
    const fresh = await signInForm('127.0.0.4', 'carol@example.com', 'carol-right-password');
    expect(fresh.status).toBe(429);
    expect(await fresh.text()).toContain('Too many attempts');

    // Her browser, with its device cookie, is not locked by those failures.
    const known = await signInForm('127.0.0.3', 'carol@example.com', 'carol-right-password', device);
    expect(known.status).toBe(303);
    // The cookie is Carol's: presented with another email it counts for nothing (still locked there by the stranger's 40).
    expect((await signInForm('127.0.0.2', 'nobody-else@example.com', 'x-wrong-x', device)).status).toBe(429);
    // A forged or altered cookie is no device.
    const forged = `${device.slice(0, -4)}AAAA`;
    expect((await signInForm('127.0.0.5', 'carol@example.com', 'carol-right-password', forged)).status).toBe(429);
  }, CASE_MS);

  it('keyless /mcp is for loopback callers: the internet behind the proxy on this host gets 401, a loopback client 200', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const fromInternet = await via(outside, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(list) });
    expect(fromInternet.status).toBe(401);
    expect(await fromInternet.json()).toMatchObject({ kind: 'missing' });
    // Claiming loopback in a header of its own changes nothing: the proxy sets X-Forwarded-For itself.
    const spoofed = await via(outside, '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' },
      body: JSON.stringify(list),
    });
    expect(spoofed.status).toBe(401);
    const fromLoopback = await via('127.0.0.6', '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(list) });
    expect(fromLoopback.status).toBe(200);
  });

  it("the Origin check takes the public URL as the gate's own and a loopback origin from the internet as foreign", async () => {
    const key = await gate.key('agent');
    const call = (from: string, origin: string) =>
      via(from, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}`, origin },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await call(outside, publicUrl)).status).toBe(200);
    const foreign = await call(outside, gate.url);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ kind: 'origin' });
    expect((await call('127.0.0.7', gate.url)).status).toBe(200);
  });

  it('serves /metrics through the proxy to a key with scope metrics only, parsed by a Prometheus text parser', async () => {
    const metricsKey = await gate.key('reviewer', { scope: 'metrics' });
    const other = await gate.key('reviewer');
    expect((await via(outside, '/metrics')).status).toBe(401);
    expect((await via(outside, '/metrics', { headers: { authorization: `Bearer ${other.key}` } })).status).toBe(403);
    const answer = await via(outside, '/metrics', { headers: { authorization: `Bearer ${metricsKey.key}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const requests = familyOf(parseMetrics(await answer.text()), 'gate_requests_total');
    // The sign-ins above went through the proxy and were counted at the oauth door.
    expect(sampleSum(requests, { door: 'oauth', verb: '/oauth/authorize' })).toBeGreaterThanOrEqual(40);
  });
});
