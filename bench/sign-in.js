#!/usr/bin/env node
// What a signed-in person costs on /rpc beside an API key, and what a refresh costs, on a
// gate that is its own sign-in provider, beside the raw verification floors of this run.
import { createHash, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import { BENCH_DIR, CpuAccount, HttpClient, SocketClient, fmtInt, fmtMs, machine, parseOptions, percentiles, printTable, recordedOptions, round, runPool, startGate, tempDir, waitQuiet } from './lib.js';

const USAGE = `
node bench/sign-in.js [options]

Starts a gate whose [auth].issuer is its own loopback URL, adds --people people with
gv.person_add and signs each in through GET/POST /oauth/authorize and POST /oauth/token
(PKCE). Then, over POST /rpc, --clients closed-loop clients call gv.ping --calls times in
all, once with one API key per client and once with one person access token per client
(EdDSA JWT verified with jose, role from the people table). Then --refreshes refresh_token
grants one at a time (each rotation is a journaled, fsynced event and two signed JWTs).

Floors, in this process before the gate starts: Ed25519 verify of a JWT-sized message with
node:crypto, jose jwtVerify of an EdDSA access token, and Ed25519 sign.

Writes bench/results/sign-in.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    people: { type: 'number', default: 32, help: 'people signed in' },
    clients: { type: 'number', default: 32, help: 'closed-loop HTTP clients' },
    calls: { type: 'number', default: 40000, help: 'gv.ping calls per credential kind' },
    refreshes: { type: 'number', default: 500, help: 'sequential refresh_token grants' },
    'wait-quiet': { type: 'number', default: 60, help: 'seconds to wait at most for other processes to use < 0.25 core (0: do not wait)' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'sign-in.json'), help: 'results file ("" for none)' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);

function rate(n, fn) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return n / ((performance.now() - t0) / 1000);
}

async function asyncRate(n, fn) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return n / ((performance.now() - t0) / 1000);
}

async function floors() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const token = await new SignJWT({ sub: 'bench', scope: 'openid' })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'k' })
    .setIssuer('http://127.0.0.1:1')
    .setAudience('gate-console')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  const [h, p, s] = token.split('.');
  const signed = Buffer.from(`${h}.${p}`);
  const sig = Buffer.from(s, 'base64url');
  rate(2000, () => verify(null, signed, publicKey, sig));
  return {
    ed25519_verify_per_s: round(rate(20000, () => verify(null, signed, publicKey, sig)), 0),
    jose_jwt_verify_per_s: round(
      await asyncRate(20000, () => jwtVerify(token, publicKey, { issuer: 'http://127.0.0.1:1', audience: 'gate-console', algorithms: ['EdDSA'] })),
      0,
    ),
    ed25519_sign_per_s: round(rate(20000, () => sign(null, signed, privateKey)), 0),
  };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const formPost = (url, fields, headers = {}) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) });
const refreshOf = (res) => res.headers.getSetCookie().map((c) => /^gate_refresh=([^;]+)/.exec(c)?.[1]).find(Boolean);

async function signInPerson(gate, socket, n) {
  const email = `bench${n}@example.test`;
  const password = randomBytes(12).toString('base64url');
  await socket.call('gv.person_add', { email, password, role: 'reader' });
  const verifier = randomBytes(32).toString('base64url');
  const fields = {
    response_type: 'code',
    client_id: 'gate-console',
    redirect_uri: `${gate.url}/app`,
    state: `s${n}`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  const posted = await formPost(`${gate.url}/oauth/authorize`, { ...fields, email, password });
  if (posted.status !== 303) throw new Error(`sign-in answered ${posted.status}`);
  const code = new URL(posted.headers.get('location')).searchParams.get('code');
  const token = await formPost(`${gate.url}/oauth/token`, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'gate-console', redirect_uri: fields.redirect_uri });
  const body = await token.json();
  return { access: body.access_token, refresh: refreshOf(token) };
}

async function pingRun(http, credentials, calls, clients) {
  const latencies = [];
  let failures = 0;
  const t0 = performance.now();
  await runPool(calls, clients, async (i) => {
    const s = performance.now();
    const { status, body } = await http.send(credentials[i % credentials.length], 'gv.ping', {});
    latencies.push(performance.now() - s);
    if (status !== 200 || body.error) failures++;
  });
  const seconds = (performance.now() - t0) / 1000;
  const { 50: p50, 99: p99 } = percentiles(latencies);
  return { calls, per_s: round(calls / seconds, 0), p50_ms: round(p50, 3), p99_ms: round(p99, 3), failures };
}

async function main() {
  const floor = await floors();
  const home = tempDir('gate-bench-sign-in');
  mkdirSync(home, { recursive: true });
  const port = await freePort();
  const gate = await startGate({ home, port, removeHome: true, env: { GATE_AUTH_ISSUER: `http://127.0.0.1:${port}` } });
  const socket = await SocketClient.open(gate.socketPath);
  const http = new HttpClient(gate.url, { maxSockets: opts.clients });
  try {
    const keys = [];
    for (let i = 0; i < opts.clients; i++) keys.push((await socket.call('gv.keys', { action: 'issue', role: 'reader' })).key);
    const people = [];
    for (let i = 0; i < opts.people; i++) people.push(await signInPerson(gate, socket, i));
    await pingRun(http, keys, 2000, opts.clients);
    await pingRun(http, people.map((p) => p.access), 2000, opts.clients);
    const quiet = opts['wait-quiet'] > 0 ? await waitQuiet(opts['wait-quiet'], 0.25, log) : null;
    const cpu = new CpuAccount(gate.pid);
    const apiKey = await pingRun(http, keys, opts.calls, opts.clients);
    const person = await pingRun(http, people.map((p) => p.access), opts.calls, opts.clients);
    let refresh = people[0].refresh;
    const refreshLatencies = [];
    const r0 = performance.now();
    for (let i = 0; i < opts.refreshes; i++) {
      const s = performance.now();
      const res = await formPost(`${gate.url}/oauth/token`, { grant_type: 'refresh_token' }, { cookie: `gate_refresh=${refresh}` });
      if (res.status !== 200) throw new Error(`refresh ${i}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      refresh = refreshOf(res);
      refreshLatencies.push(performance.now() - s);
    }
    const refreshSeconds = (performance.now() - r0) / 1000;
    const { 50: rp50, 99: rp99 } = percentiles(refreshLatencies);
    const refreshes = { grants: opts.refreshes, per_s: round(opts.refreshes / refreshSeconds, 0), p50_ms: round(rp50, 3), p99_ms: round(rp99, 3) };
    const cpuUse = cpu.stop();
    printTable(
      [
        ['', 'rate', 'latency'],
        ['gv.ping over /rpc, API key', `${fmtInt(apiKey.per_s)}/s`, `p50 ${fmtMs(apiKey.p50_ms)} ms, p99 ${fmtMs(apiKey.p99_ms)} ms`],
        ['gv.ping over /rpc, person token', `${fmtInt(person.per_s)}/s`, `p50 ${fmtMs(person.p50_ms)} ms, p99 ${fmtMs(person.p99_ms)} ms`],
        ['refresh_token grant, one at a time', `${fmtInt(refreshes.per_s)}/s`, `p50 ${fmtMs(refreshes.p50_ms)} ms, p99 ${fmtMs(refreshes.p99_ms)} ms`],
        ['floor: Ed25519 verify (node:crypto)', `${fmtInt(floor.ed25519_verify_per_s)}/s`, ''],
        ['floor: jose jwtVerify, EdDSA', `${fmtInt(floor.jose_jwt_verify_per_s)}/s`, ''],
        ['floor: Ed25519 sign (node:crypto)', `${fmtInt(floor.ed25519_sign_per_s)}/s`, ''],
      ],
      `sign-in on ${opts.clients} clients (cpu: gate ${cpuUse.gate_cores}, bench ${cpuUse.bench_client_cores}, others ${cpuUse.other_processes_cores} cores)`,
    );
    const result = { when: new Date().toISOString(), machine: machine(), options: recordedOptions(opts), quiet, cpu: cpuUse, floors: floor, rpc_api_key: apiKey, rpc_person_token: person, refresh: refreshes };
    if (opts.out !== '') writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    http.close();
    socket.close();
    await gate.stop();
  }
}

await main();
