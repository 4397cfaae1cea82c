import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

export interface RpcAnswer {
  jsonrpc: '2.0';
  id: unknown;
  result?: any;
  error?: { code: number; message: string; data?: any };
}

/**
 * Most tests promote with a reviewer API key. A key signs as an agent, and an agent's
 * signature counts only outside human review, and settles a promotion only in an auto
 * space; the solo-reviewer profile asks one signature of every class. So test gates
 * start with main in auto review under that profile unless a test says otherwise; the
 * review tests set their own policy and profile.
 */
export const KEYS_PROMOTE: Record<string, string> = { GATE_SPACES_MAIN_POLICY: 'auto', GATE_REVIEW_QUORUM_PROFILE: 'solo-reviewer' };

/**
 * A test gate's scan, for every kind of test gate unless a test says otherwise:
 *
 * - its deadline, over the 10 s default: on a machine the suite loads, a claim of a few
 *   hundred KB passed 10 s and was held with scan_timeout, so the test failed by the load alone
 *   (test/README.md: a test waits for a condition, never for a time). The deadline's own tests
 *   set theirs (test/pipeline/scan-deadline.test.ts), as does a file that names it.
 * - one thread a lane, where the default is one per core: each started thread loads the
 *   scanner (about 0.3 s of CPU, measured), which every gate the suite opens paid once per
 *   core of the machine running it; a test of the lanes' threads sets its own.
 */
export const TEST_SCAN: Record<string, string> = { GATE_SCAN_DEADLINE_MS: '600000', GATE_SCAN_THREADS: '1' };

/** A temp home that other local accounts can traverse (the socket test connects as nobody). */
export function tempHome(): string {
  const parent = mkdtempSync(join(tmpdir(), 'gate-test-'));
  chmodSync(parent, 0o755);
  return join(parent, 'home');
}

let fetchParser: Promise<unknown> | null = null;

/**
 * Node 20's fetch (its bundled undici 6.24) compiles its HTTP parser (WebAssembly) on first
 * use, and a connection made before that is done gets its close and error listeners only
 * once it is: a connection the server resets in between is never noticed, and its request
 * never settles. The SIGTERM test, whose first requests are in flight as the gate stops,
 * hung 60 s on it about one run in three under load. One answered request per test process
 * loads the parser first.
 */
export function loadFetchParser(baseUrl: string): Promise<unknown> {
  return (fetchParser ??= fetch(`${baseUrl}/`)
    .then((res) => res.arrayBuffer())
    .catch((error: unknown) => {
      fetchParser = null;
      throw error;
    }));
}

/** Longest a started gate may take to print its listening line: under vitest's 60 s hook bound, so this error, with the gate's stderr, comes first. */
const START_MAX_MS = 50_000;

/** A real `gate serve` process on a loopback port with its socket in a temp home. */
export class GateProcess {
  url = '';
  socketPath = '';
  deploymentId = '';
  readonly stderr: string[] = [];
  private child!: ChildProcess;
  private exited!: Promise<number | null>;

  private constructor(
    readonly home: string,
    private readonly env: Record<string, string>,
    private readonly port: number,
    private readonly asBin: boolean,
    /** More arguments of `gate serve` (`--takeover` for a copy of a home). */
    private readonly args: readonly string[],
  ) {}

  /**
   * `port` 0 (the default) lets the system pick; a fixed one keeps a URL known before start (a
   * sign-in issuer's). `asBin` runs the built file itself, as the `gate` bin and `npm start`
   * do (its `#!/usr/bin/env -S node …` line chooses node's flags), instead of `node CLI`.
   */
  static async start(options: { home?: string | undefined; env?: Record<string, string>; port?: number; asBin?: boolean; args?: string[] } = {}): Promise<GateProcess> {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm test does)`);
    const gate = new GateProcess(options.home ?? tempHome(), { ...TEST_SCAN, ...KEYS_PROMOTE, ...(options.env ?? {}) }, options.port ?? 0, options.asBin === true, options.args ?? []);
    await gate.launch();
    return gate;
  }

  private launch(): Promise<void> {
    const args = ['serve', '--home', this.home, '--port', String(this.port), ...this.args];
    this.child = spawn(this.asBin ? CLI : process.execPath, this.asBin ? args : [CLI, ...args], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    createInterface({ input: this.child.stderr! }).on('line', (l) => this.stderr.push(l));
    return new Promise((resolve, reject) => {
      // A start takes 1-3 s here; the bound only turns a gate that never listens into an error.
      // It is wide because the suite's files run side by side on two cores, and under a load
      // of 20 and more a start was seen to pass 30 s.
      const timer = setTimeout(() => reject(new Error(`gate did not start within ${START_MAX_MS} ms: ${this.stderr.join('\n')}`)), START_MAX_MS);
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`gate exited with ${code} before listening: ${this.stderr.join('\n')}`));
      });
      createInterface({ input: this.child.stdout! }).on('line', (line) => {
        const m = /^gate listening on (\S+) socket (\S+) deployment (\S+) home \S+; next: /.exec(line);
        if (!m) return;
        clearTimeout(timer);
        [, this.url, this.socketPath, this.deploymentId] = m as unknown as [string, string, string, string];
        loadFetchParser(this.url).then(() => resolve(), reject);
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the same home again after a stop or a kill. */
  async restart(): Promise<void> {
    await this.launch();
  }

  /** Stops the gate with `signal` (SIGTERM, or SIGINT as Ctrl-C sends) and resolves with its exit code. */
  async stop(signal: 'SIGTERM' | 'SIGINT' = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill(signal);
    return this.exited;
  }

  /** The signal that ended the process, if one did (null for an exit with a code, or while it runs). */
  get exitSignal(): NodeJS.Signals | null {
    return this.child.signalCode;
  }

  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** One JSON-RPC call over the socket, as the account running the tests (admin: root runs both). */
  socket(method: string, params?: unknown): Promise<RpcAnswer> {
    return socketRpc(this.socketPath, method, params);
  }

  async rpc(key: string | null, method: string, params?: unknown): Promise<RpcAnswer> {
    const res = await this.http('POST', '/rpc', { key, body: { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) } });
    return res.json as RpcAnswer;
  }

  http(
    method: string,
    path: string,
    options: HttpOptions = {},
  ): Promise<HttpAnswer> {
    return httpRequest(this.url, method, path, options);
  }

  /**
   * What a reviewer does before signing another's row: reads its whole masked body, page by
   * page (gv.node body: true), so their approval counts. `key` null reads over the socket.
   * A caller who may not read the row reads nothing; the decision after it says why.
   */
  readBody(key: string | null, artifactId: string): Promise<void> {
    return readWholeBody(this, key, artifactId);
  }

  /** Issues an API key through the socket (admin) and returns the raw key and identity. */
  key(role: KeyRole, extra: Record<string, unknown> = {}) {
    return issueKey(this, role, extra);
  }
}

/** What a test gate of any kind answers on: a message as a key on /rpc, or as the socket's admin. */
export interface GateDoors {
  rpc(key: string, method: string, params?: unknown): Promise<RpcAnswer>;
  socket(method: string, params?: unknown): Promise<RpcAnswer>;
}

export type KeyRole = 'reader' | 'agent' | 'reviewer' | 'admin' | 'runner';

/**
 * A reviewer's read of a whole masked body, page by page (gv.node body: true with each next
 * offset), as a signature needs it; `key` null reads as the socket's admin. Stops at a refusal.
 */
export async function readWholeBody(gate: GateDoors, key: string | null, artifactId: string): Promise<void> {
  let offset: number | null = 0;
  while (offset !== null) {
    const params: Record<string, unknown> = { artifact_id: artifactId, body: true, ...(offset === 0 ? {} : { offset }) };
    const page: RpcAnswer = key === null ? await gate.socket('gv.node', params) : await gate.rpc(key, 'gv.node', params);
    if (page.error) return;
    offset = page.result.masked_next_offset ?? null;
  }
}

/** An API key issued over the socket (admin): the raw key, its identity and its id. */
export async function issueKey(gate: GateDoors, role: KeyRole, extra: Record<string, unknown> = {}) {
  const answer = await gate.socket('gv.keys', { action: 'issue', role, ...extra });
  if (answer.error) throw new Error(`key issue failed: ${answer.error.message}`);
  return { key: answer.result.key as string, identity: `key:${answer.result.key_id}`, keyId: answer.result.key_id as string };
}

export interface HttpOptions {
  key?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

/** One HTTP request to a gate at `baseUrl`: a bearer key, a JSON body or raw text; redirects are not followed. */
export async function httpRequest(baseUrl: string, method: string, path: string, options: HttpOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers['authorization'] = `Bearer ${options.key}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export function socketRpc(socketPath: string, method: string, params?: unknown): Promise<RpcAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () =>
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })}\n`),
    );
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const i = buffered.indexOf('\n');
      if (i < 0) return;
      socket.end();
      resolve(JSON.parse(buffered.slice(0, i)) as RpcAnswer);
    });
    socket.on('error', reject);
  });
}

/** A claim body that is unique per call, so no two tests collide on the duplicate rule. */
let counter = 0;
export function uniqueText(label = 'claim'): string {
  counter += 1;
  return `${label} ${process.pid}-${Date.now()}-${counter}-${Math.random().toString(36).slice(2)}: the build uses Node twenty with strict TypeScript.`;
}
