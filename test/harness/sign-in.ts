import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { CLI, GateProcess } from './gate-process.js';

/**
 * Signed-in people for tests, through the real sign-in provider over HTTP.
 *
 *   const gate = await startGateWithIssuer();                  // a gate that is its own issuer
 *   const alice = await signIn(gate, { role: 'reviewer' });     // a person, signed in
 *   await gate.rpc(alice.accessToken, 'gv.describe');           // you.kind 'person', role reviewer
 *
 * signIn adds the person over the socket (gv.person_add, as the operator's `gate people add`
 * does) and then runs GET and POST /oauth/authorize and POST /oauth/token with PKCE S256
 * exactly as a browser would. Nothing is minted by hand.
 */

export const CLIENT_ID = 'gate-console';

/** What signIn needs of a gate: a GateProcess, or a gate served in this process (in-process-server.ts). */
export type RunningGate = Pick<GateProcess, 'url' | 'socket' | 'http'>;

export type PersonRole = 'reader' | 'agent' | 'reviewer' | 'admin';

export interface SignedInPerson {
  /** Bearer for /rpc: `Authorization: Bearer <accessToken>` (gate.rpc(accessToken, ...)). */
  accessToken: string;
  idToken: string;
  /** The gate_refresh cookie's value (the refresh token). */
  refreshToken: string;
  /** `<iss>|<sub>`: the identity verbs see, and a principal for gv.grant. */
  identity: string;
  iss: string;
  sub: string;
  email: string;
  password: string;
  role: PersonRole;
  demo: boolean;
}

/** The issuer a gate listening on this loopback port has. */
export const issuerOf = (port: number) => `http://127.0.0.1:${port}`;

/** The environment that makes a gate on `port` its own sign-in provider. */
export function issuerEnv(port: number): Record<string, string> {
  return { GATE_AUTH_ISSUER: issuerOf(port) };
}

/** A loopback port free right now (the issuer URL must be known before the gate starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a gate whose `[auth].issuer` is its own URL, on a free loopback port (tried again
 * on another port should the first be taken meanwhile). `env` adds to the issuer's.
 */
export async function startGateWithIssuer(options: { env?: Record<string, string>; home?: string | undefined; asBin?: boolean } = {}): Promise<GateProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await GateProcess.start({ ...options, port, env: { ...issuerEnv(port), ...(options.env ?? {}) } });
    } catch (error) {
      lastError = error;
      if (!String(error).includes('EADDRINUSE')) throw error;
    }
  }
  throw lastError;
}

/** A PKCE pair: a random verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorize request a console sends, for `gate` as issuer, its /app as redirect_uri. */
export function authorizeFields(gate: RunningGate, challenge: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: `${gate.url}/app`,
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid email profile',
    ...extra,
  };
}

export const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** POST /oauth/authorize with email and password; answers the code from the 303's Location. */
export async function authorizeCode(gate: RunningGate, fields: Record<string, string>, email: string, password: string): Promise<string> {
  const page = await gate.http('GET', `/oauth/authorize?${new URLSearchParams(fields)}`);
  if (page.status !== 200) throw new Error(`GET /oauth/authorize answered ${page.status}: ${page.text}`);
  const posted = await gate.http('POST', '/oauth/authorize', form({ ...fields, email, password }));
  if (posted.status !== 303) throw new Error(`POST /oauth/authorize answered ${posted.status}, not 303`);
  const location = new URL(posted.headers.get('location')!);
  if (location.searchParams.get('state') !== fields['state']) throw new Error('the redirect did not echo state');
  return location.searchParams.get('code')!;
}

/** The gate_refresh value of a token answer's Set-Cookie, or undefined. */
export function refreshCookieOf(headers: Headers): string | undefined {
  for (const cookie of headers.getSetCookie()) {
    const m = /^gate_refresh=([^;]*)/.exec(cookie);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * `gate people add EMAIL --role ROLE --password-stdin --home HOME`, as an operator runs it:
 * answers the person's identity (`<iss>|<sub>`) from the command's output.
 */
export function addPersonWithCli(gate: Pick<GateProcess, 'home'>, email: string, password: string, role: PersonRole): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'people', 'add', email, '--role', role, '--password-stdin', '--home', gate.home], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      const identity = /\S+\|[0-9a-f-]{36}/.exec(out)?.[0];
      if (code !== 0 || identity === undefined) reject(new Error(`gate people add exited ${code}: ${out}${err}`));
      else resolve(identity);
    });
    child.stdin.end(`${password}\n`);
  });
}

let people = 0;

/**
 * Adds a person with `role` (and `demo`) to the gate's people and signs them in over HTTP;
 * answers a valid access token for /rpc. The gate must have been started with an issuer
 * (startGateWithIssuer). Email and password are made up unless given.
 */
export async function signIn(
  gate: RunningGate,
  options: { role: PersonRole; demo?: boolean; email?: string; password?: string; name?: string },
): Promise<SignedInPerson> {
  people += 1;
  const email = options.email ?? `person${people}-${randomBytes(4).toString('hex')}@example.test`;
  const password = options.password ?? randomBytes(12).toString('base64url');
  const added = await gate.socket('gv.person_add', {
    email,
    password,
    role: options.role,
    demo: options.demo ?? false,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  if (added.error) throw new Error(`gv.person_add failed: ${added.error.message}`);
  const { verifier, challenge } = pkcePair();
  const fields = authorizeFields(gate, challenge);
  const code = await authorizeCode(gate, fields, email, password);
  const token = await gate.http(
    'POST',
    '/oauth/token',
    form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: CLIENT_ID, redirect_uri: fields['redirect_uri']! }),
  );
  if (token.status !== 200) throw new Error(`POST /oauth/token answered ${token.status}: ${token.text}`);
  return {
    accessToken: token.json.access_token,
    idToken: token.json.id_token,
    refreshToken: refreshCookieOf(token.headers)!,
    identity: added.result.identity,
    iss: added.result.iss,
    sub: added.result.sub,
    email: added.result.email,
    password,
    role: options.role,
    demo: options.demo ?? false,
  };
}
