import { mkdirSync } from 'node:fs';
// The compiled gate: its pools load their worker entries from dist/ beside it.
import { serve, type RunningGate as Served } from '../../dist/src/server.js';
import { httpRequest, issueKey, KEYS_PROMOTE, loadFetchParser, readWholeBody, socketRpc, tempHome, TEST_SCAN, type HttpAnswer, type HttpOptions, type KeyRole, type RpcAnswer } from './gate-process.js';
import { freePort, issuerOf } from './sign-in.js';
import { collectedLog } from './collected-log.js';
import { layOver, type Layer } from './process-overlay.js';
import { dispatchWithKey } from './unit-gate.js';

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
  /** The gate's environment and umask over this process's while it runs (process-overlay.ts), lifted at stop. */
  private layer: Layer | null = null;
  /** Whether the gate serves: a stop after a stop shuts nothing down twice. */
  private serving = false;

  private constructor(
    readonly home: string,
    private readonly port: number,
    private readonly settings: Record<string, unknown>,
    private readonly env: Record<string, string>,
  ) {}

  /**
   * `home`: a new temp home when not given. `env` is read as `gate serve` reads its own
   * (GATE_SECTION_KEY, under `settings`), over KEYS_PROMOTE and the test scan deadline as a
   * process gate's `env` is: it is set over this process's environment while the gate runs
   * (its threads start with it), lifted at stop.
   */
  static async start(settings: Record<string, unknown> = {}, home: string = tempHome(), env: Record<string, string> = {}): Promise<InProcessServer> {
    const server = new InProcessServer(home, await freePort(), settings, env);
    mkdirSync(server.home, { recursive: true });
    await server.open();
    return server;
  }

  private async open(): Promise<void> {
    const layer = (this.layer ??= layOver({ ...TEST_SCAN, ...KEYS_PROMOTE, ...this.env }));
    try {
      // serve() reads its config and opens the gate before its first await: with its own environment, not another open gate's.
      this.running = await layer.alone(() =>
        serve({
          home: this.home,
          port: this.port,
          settings: { 'auth.issuer': issuerOf(this.port), ...this.settings },
          clock: this.clock,
          log: collectedLog(this.log),
        }),
      );
    } catch (error) {
      layer.lift();
      this.layer = null;
      throw error;
    }
    this.serving = true;
    await loadFetchParser(this.url);
  }

  /** Serves the same home again after a stop, on the same port (so at the same issuer URL), as a restart of `gate serve` would. */
  async restart(): Promise<void> {
    await this.open();
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

  /**
   * One message with a bearer credential to the dispatcher both doors call, its caller made as
   * POST /rpc makes it, without the HTTP round trip: for a test's setup (thousands of rows a
   * test needs in the journal), where the door is not what the test is about.
   */
  behindTheDoor(key: string, method: string, params?: unknown): Promise<RpcAnswer> {
    return dispatchWithKey(this.running.gate, key, method, params);
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
      if (this.serving) {
        this.serving = false;
        await this.running.shutdown('test over');
      }
    } finally {
      this.layer?.lift();
      this.layer = null;
    }
  }
}
