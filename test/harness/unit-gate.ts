import { mkdirSync } from 'node:fs';
// The compiled gate, as in-process-gate.ts loads it: its pools and threads load their worker
// entries from dist/ beside the module (new URL('../workers/…', import.meta.url)), which the
// TypeScript source beside src/ does not have.
import { Gate } from '../../dist/src/gate.js';
import { prepareHome } from '../../dist/src/server.js';
import { loadConfig } from '../../dist/src/config/load-config.js';
import { dispatch } from '../../dist/src/verbs/dispatch.js';
import { CredentialError } from '../../dist/src/auth/bearer.js';
import { scanPending } from '../../dist/src/scanning/scan-pending.js';
import type { Caller } from '../../dist/src/access/caller.js';
import type { Clock } from '../../dist/src/clock.js';
import { issueKey, KEYS_PROMOTE, readWholeBody, TEST_SCAN, tempHome, type KeyRole, type RpcAnswer } from './gate-process.js';
import { collectedLog } from './collected-log.js';
import { layOver, type Layer } from './process-overlay.js';

export interface UnitGateOptions {
  /** Environment over this process's and KEYS_PROMOTE, read as `gate serve` reads its own (GATE_SECTION_KEY). */
  env?: Record<string, string>;
  /** Settings as `serve()` takes them (`{ 'spaces.main_policy': 'auto' }`), over the environment. */
  settings?: Record<string, unknown>;
  /** The home; a new temp home when not given. */
  home?: string;
  /** A clock the test moves by hand; the system clock otherwise. */
  clock?: Clock;
  /** Opens a copy of a home as this gate from now on, as `gate serve --takeover` does (journaled). */
  takeover?: boolean;
}

/** One message to `gate`'s dispatcher as `caller`, answered as a door answers it (through JSON). */
async function dispatchAs(gate: Gate, caller: Caller, method: string, params?: unknown): Promise<RpcAnswer> {
  const answer = await dispatch(gate, caller, { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });
  return JSON.parse(JSON.stringify(answer)) as RpcAnswer;
}

/**
 * One message to `gate`'s dispatcher with a bearer credential, its caller made as POST /rpc
 * makes it (the gate's own BearerAuth); a credential the gate refuses answers the body the
 * door's 401 carries (`{ error, kind }`).
 */
export async function dispatchWithKey(gate: Gate, key: string | null, method: string, params?: unknown): Promise<RpcAnswer> {
  let caller: Caller;
  try {
    caller = await gate.auth.bearer.callerOf(key === null ? undefined : `Bearer ${key}`, 'http');
  } catch (error) {
    if (error instanceof CredentialError) return JSON.parse(JSON.stringify(error.body())) as RpcAnswer;
    throw error;
  }
  return dispatchAs(gate, caller, method, params);
}

/** The socket's caller for the account running the tests: admin, as the socket door makes it (src/surfaces/socket-server.ts). */
function socketAdmin(): Caller {
  const uid = process.getuid!();
  return { identity: `uid:${uid}`, role: 'admin', kind: 'local', scope: null, demo: false, surface: 'socket', uid };
}

/**
 * The unit layer's gate (test/README.md): the real Gate opened in the test's own process, as
 * `gate serve` opens it (its config from the home's gate.toml, the environment and settings,
 * serving: true so the review schedule runs, the start scan), with no door listening. `rpc`
 * and `socket` hand one JSON-RPC message to the real dispatcher (`dispatch`, which both doors
 * call) with the caller each door would make: a key's caller from the gate's own BearerAuth,
 * the socket's admin. The answer goes through JSON as a door's would. What it does not have is
 * what only a door does: HTTP status codes and headers, body limits, in-flight limits, the
 * socket's framing; a test of those is a surface test and uses useGate's process gate.
 */
export class UnitGate {
  /** The gate's log lines, kept rather than printed. */
  readonly log: string[] = [];
  private opened!: Gate;
  /** The gate's environment and umask over this process's while it runs (process-overlay.ts), lifted at stop. */
  private layer: Layer | null = null;
  private startScan: Promise<unknown> = Promise.resolve();
  /** Whether the gate is open: a stop after a stop (a test's own, then its finally's or the afterAll's) closes nothing twice. */
  private running = false;

  private constructor(
    readonly home: string,
    private readonly options: UnitGateOptions,
  ) {}

  static async open(options: UnitGateOptions = {}): Promise<UnitGate> {
    const unit = new UnitGate(options.home ?? tempHome(), options);
    mkdirSync(unit.home, { recursive: true });
    try {
      unit.start();
    } catch (error) {
      // A gate that did not open still set the environment and umask over this process's,
      // which the files after this one in the same worker would inherit.
      await unit.stop();
      throw error;
    }
    return unit;
  }

  private start(): void {
    // The gate's environment is this process's, as a `gate serve` child's is its parent's with
    // `env` over it: the config reads GATE_SECTION_KEY from it, and the threads read what a
    // config names (a model backend's api_key_env) from the environment they start with.
    this.layer ??= layOver({ ...TEST_SCAN, ...KEYS_PROMOTE, ...(this.options.env ?? {}) });
    // Its config and the threads it always runs see its own environment, not another open gate's.
    this.opened = this.layer.alone(() => {
      const paths = prepareHome(this.home);
      const flags = this.options.settings ?? {};
      const { config, sources } = loadConfig(paths.config, process.env, flags);
      return Gate.open(paths, config, {
        configOrigin: { sources, flags, savedForRestart: new Map() },
        ...(this.options.clock === undefined ? {} : { clock: this.options.clock }),
        ...(this.options.takeover === true ? { takeover: true } : {}),
        log: collectedLog(this.log),
        serving: true,
      });
    });
    this.running = true;
    // What `gate serve` scans beside serving: rows a stop left in L0_RAW.
    this.startScan = scanPending(this.opened, Infinity, null, () => false).catch((error: unknown) => this.log.push(`error the start scan failed ${String(error)}`));
  }

  /** The gate itself, for what no verb shows. */
  get gate(): Gate {
    return this.opened;
  }

  get deploymentId(): string {
    return this.opened.deployment.deploymentId;
  }

  /** One message to the dispatcher as `caller`, answered as a door answers it (through JSON). */
  dispatchAs(caller: Caller, method: string, params?: unknown): Promise<RpcAnswer> {
    return dispatchAs(this.opened, caller, method, params);
  }

  /** One call over what stands for the socket: as the account running the tests (admin). */
  socket(method: string, params?: unknown): Promise<RpcAnswer> {
    return this.dispatchAs(socketAdmin(), method, params);
  }

  /**
   * One call with a bearer credential, as POST /rpc makes its caller; a credential the gate
   * refuses answers the body the door's 401 carries (`{ error, kind }`).
   */
  rpc(key: string | null, method: string, params?: unknown): Promise<RpcAnswer> {
    return dispatchWithKey(this.opened, key, method, params);
  }

  /** A reviewer's read of a whole masked body, page by page, as GateProcess.readBody. */
  readBody(key: string | null, artifactId: string): Promise<void> {
    return readWholeBody(this, key, artifactId);
  }

  /** Issues an API key as the socket's admin, as GateProcess.key. */
  key(role: KeyRole, extra: Record<string, unknown> = {}) {
    return issueKey(this, role, extra);
  }

  /** Journal events of one type, oldest first. */
  journal(type: string): Array<{ by: string | null; data: Record<string, unknown> }> {
    return (this.opened.db.prepare('SELECT body FROM journal WHERE type = ? ORDER BY seq').all(type) as { body: string }[]).map((r) => JSON.parse(r.body));
  }

  /** Closes the gate as `gate serve`'s shutdown does (grading halted, the start scan and the rescan awaited). */
  async stop(): Promise<void> {
    if (this.running) {
      this.running = false;
      this.opened.review.grading.halt();
      await this.startScan;
      await this.opened.pipeline.promotedRescan.stop();
      await this.opened.close();
    }
    this.layer?.lift();
    this.layer = null;
  }

  /** Opens the same home again after a stop, as a restart would. */
  async restart(): Promise<void> {
    this.start();
  }
}
