import { mkdirSync } from 'node:fs';
// The compiled gate: its pools load their worker entries from dist/ beside it.
import { serve, type RunningGate as Served } from '../../dist/src/server.js';
import { httpRequest, issueKey, KEYS_PROMOTE, loadFetchParser, readWholeBody, socketRpc, tempHome, TEST_SCAN_DEADLINE, type HttpAnswer, type HttpOptions, type KeyRole, type RpcAnswer } from './gate-process.js';
import { freePort, issuerOf } from './sign-in.js';
import { collectedLog } from './collected-log.js';
import { layOver } from './process-overlay.js';

/** A clock the test moves by hand (docs/architecture.md#rules-of-the-house, rule 7): code, token and nonce expiry without sleeping. */
export class MovableClock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

/**
 * A real `serve()` in this process (the HTTP surface and socket on loopback, a temp home)
 * with an injected clock: the same surfaces as `gate serve`, with time under the test's hand.
 * The sign-in provider is on, at the gate's own URL, unless `settings` empty `auth.issuer`.
 */
export class InProcessServer {
  readonly clock = new MovableClock();
  /** The gate's log lines, kept rather than printed. */
  readonly log: string[] = [];
  private running!: Served;
  /** Lifts the gate's environment and umask off this process's (process-overlay.ts): called at stop. */
  private lift: () => void = () => undefined;

  private constructor(readonly home: string) {}

  /**
   * `home`: a new temp home when not given. `env` is read as `gate serve` reads its own
   * (GATE_SECTION_KEY, under `settings`), over KEYS_PROMOTE and the test scan deadline as a
   * process gate's `env` is: it is set over this process's environment while the gate runs
   * (its threads start with it), lifted at stop.
   */
  static async start(settings: Record<string, unknown> = {}, home: string = tempHome(), env: Record<string, string> = {}): Promise<InProcessServer> {
    const server = new InProcessServer(home);
    mkdirSync(server.home, { recursive: true });
    const port = await freePort();
    server.lift = layOver({ ...TEST_SCAN_DEADLINE, ...KEYS_PROMOTE, ...env });
    try {
      server.running = await serve({
        home: server.home,
        port,
        settings: { 'auth.issuer': issuerOf(port), ...settings },
        clock: server.clock,
        log: collectedLog(server.log),
      });
    } catch (error) {
      server.lift();
      throw error;
    }
    await loadFetchParser(server.url);
    return server;
  }

  /** The gate itself, for what no route shows (the journal's internal events). */
  get gate(): Served['gate'] {
    return this.running.gate;
  }

  /** Journal events of one internal type, oldest first. */
  journal(type: string): Array<{ by: string | null; data: Record<string, unknown> }> {
    return (this.running.gate.db.prepare('SELECT body FROM journal WHERE type = ? ORDER BY seq').all(type) as { body: string }[]).map((r) => JSON.parse(r.body));
  }

  get url(): string {
    return this.running.url;
  }

  /** The listener of server.metrics_address, when the test set one. */
  get metricsUrl(): string | null {
    return this.running.metricsUrl;
  }

  /** The gate's Unix socket, for a test of its framing. */
  get socketPath(): string {
    return this.running.socketPath;
  }

  socket(method: string, params?: unknown): Promise<RpcAnswer> {
    return socketRpc(this.running.socketPath, method, params);
  }

  http(method: string, path: string, options: HttpOptions = {}): Promise<HttpAnswer> {
    return httpRequest(this.url, method, path, options);
  }

  async rpc(key: string, method: string, params?: unknown): Promise<RpcAnswer> {
    return (await this.http('POST', '/rpc', { key, body: { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) } })).json as RpcAnswer;
  }

  /** A new API key of `role`, issued over the socket: the key and its id. */
  async issueKey(role: string): Promise<{ key: string; keyId: string }> {
    const issued = (await this.socket('gv.keys', { action: 'issue', role })).result;
    return { key: issued.key, keyId: issued.key_id };
  }

  /** Issues an API key over the socket (admin), as GateProcess.key: the raw key, its identity and its id. */
  key(role: KeyRole, extra: Record<string, unknown> = {}) {
    return issueKey(this, role, extra);
  }

  /** A reviewer's read of a whole masked body, page by page, as GateProcess.readBody. */
  readBody(key: string | null, artifactId: string): Promise<void> {
    return readWholeBody(this, key, artifactId);
  }

  get deploymentId(): string {
    return this.running.gate.deployment.deploymentId;
  }

  async stop(): Promise<void> {
    try {
      await this.running.shutdown('test over');
    } finally {
      this.lift();
    }
  }
}
