import { afterAll, beforeAll } from 'vitest';
import { GateProcess, type RpcAnswer } from './gate-process.js';
// Type only: a GateProcess test must not load the gate itself (dist/src/server.js) into its process.
import type { InProcessServer } from './in-process-server.js';
import type { UnitGate } from './unit-gate.js';
import { startGateWithIssuer } from './sign-in.js';
import { ingestAnswer, ingestId, ingestResult, type IngestParams, type Ingested, type KeyLike } from './ingest.js';

export type Role = 'reader' | 'agent' | 'reviewer' | 'admin' | 'runner';

/** A key as the socket issues it: the raw key, its identity (`key:<id>`) and its id. */
export interface IssuedKey {
  key: string;
  identity: string;
  keyId: string;
}

/** A role, or a role with more gv.keys issue params (`{ role: 'reviewer', scope: 'events' }`). */
export type KeySpec = Role | ({ role: Role } & Record<string, unknown>);

/**
 * An option's value, or a function useGate's beforeAll calls for it when it starts the gate:
 * after the beforeAll hooks registered before useGate ran, so it may read what they made (a
 * model server's URL, a home with its gate.toml written, another fixture's gate).
 *
 *   let door: OrgDoorServer;
 *   beforeAll(async () => { door = await OrgDoorServer.start(); });
 *   afterAll(async () => { await door?.stop(); });
 *   const { gate } = useGate({ env: () => ({ GATE_ORG_URL: door.url }) });
 */
export type AtStart<T> = T | (() => T | Promise<T>);

interface CommonOptions<K extends Record<string, KeySpec>> {
  /** Keys issued over the socket once the gate listens, in this order, by name: `{ a: 'agent', b: 'agent' }` gives `keys.a`, `keys.b`. */
  keys?: K;
  /** The beforeAll's bound in ms (vitest's hookTimeout, 60 s, when not given). */
  timeout?: number;
  /**
   * The gate's home directory; a new temp home when not given. A given one may hold what an
   * earlier hook wrote there (a gate.toml of the operator's), or be another fixture's, for a
   * second gate on the same data: `home: () => first.gate.home`, the first stopped before
   * (two gates never serve one home at once).
   */
  home?: AtStart<string>;
}

/**
 * A real `gate serve` process (GateProcess): main in auto review under solo-reviewer unless `env` says otherwise.
 * Its own stop(), kill() and restart() (the same home again) work through `gate`; the afterAll stops whatever runs then.
 */
export interface ProcessGateOptions<K extends Record<string, KeySpec>> extends CommonOptions<K> {
  kind?: 'process';
  /** Environment for the process, over KEYS_PROMOTE. */
  env?: AtStart<Record<string, string>>;
  /**
   * The gate is its own sign-in provider: it listens on a loopback port chosen before the start,
   * and its `[auth].issuer` is its own URL (as startGateWithIssuer starts it; a restart keeps the port).
   */
  ownIssuer?: boolean;
  /** Runs the built file itself, as the `gate` bin and `npm start` do, instead of `node CLI` (GateProcess.start's asBin). */
  asBin?: boolean;
}

/** `serve()` in this process (InProcessServer), with a movable clock (`gate.clock`). It is always its own sign-in provider. */
export interface InProcessGateOptions<K extends Record<string, KeySpec>> extends CommonOptions<K> {
  kind: 'in-process';
  /** Settings as `serve()` takes them (`{ 'spaces.main_policy': 'auto' }`). */
  settings?: AtStart<Record<string, unknown>>;
  /** Environment as the process gate's `env` (GATE_SECTION_KEY), under `settings`; set over this process's while the gate runs. */
  env?: AtStart<Record<string, string>>;
}

/**
 * The unit layer (test/README.md): the real Gate in this process (UnitGate), no door
 * listening; `rpc` and `socket` go to the real dispatcher with the caller each door makes.
 * For tests of verbs and views; a test of HTTP, the socket, a restart's process or a crash is
 * a process-level test.
 */
export interface UnitGateOptions<K extends Record<string, KeySpec>> extends CommonOptions<K> {
  kind: 'unit';
  /** Environment as the process gate's `env` (GATE_SECTION_KEY), over KEYS_PROMOTE. */
  env?: AtStart<Record<string, string>>;
  /** Settings as `serve()` takes them, over the environment. */
  settings?: AtStart<Record<string, unknown>>;
}

export interface GateFixture<G, K> {
  /**
   * The gate. Usable from useGate's beforeAll on (in tests, in later hooks, in helpers they
   * call): it stands in for the started GateProcess or InProcessServer, so a file may take
   * it apart at its top (`const { gate } = useGate()`); a read before the start throws.
   */
  readonly gate: G;
  /** The issued keys by name: each object exists at once and is filled in beforeAll. */
  readonly keys: { readonly [N in keyof K]: IssuedKey };
  /** gv.ingest by `key` on this gate (see ingest.ts): the whole answer. */
  ingestAnswer(key: KeyLike, params?: IngestParams): Promise<RpcAnswer>;
  /** gv.ingest that must be admitted: its result. */
  ingestResult(key: KeyLike, params?: IngestParams): Promise<Ingested>;
  /** gv.ingest that must be admitted: its artifact id. */
  ingestId(key: KeyLike, params?: IngestParams): Promise<string>;
}

/**
 * One gate for the enclosing file or describe: registers a beforeAll that starts it and
 * issues `keys`, and an afterAll that stops it whatever the tests did. A start that fails
 * fails the beforeAll with the gate's own error (so every test of the scope fails with it);
 * a gate that started is stopped even when issuing a key failed after it. Hooks the file
 * registers after this call run after the start and before the stop.
 *
 *   const { gate, keys: { agent, reviewer } } = useGate({ keys: { agent: 'agent', reviewer: 'reviewer' } });
 *   const { gate: server } = useGate({ kind: 'in-process', settings: { 'auth.challenge_ttl_ms': 1_000 } });
 *   const { gate: issuer } = useGate({ ownIssuer: true, env: () => modelEnv(models) });
 *
 * `env`, `settings` and `home` may be functions (AtStart): they are called in the beforeAll,
 * once, so they may read what hooks registered before this call made. Several useGate calls
 * in one scope start their gates in the order of the calls and stop them in the reverse order,
 * as vitest runs hooks: so a gate started after a server it talks to is stopped before it.
 */
export function useGate<K extends Record<string, KeySpec> = {}>(options?: ProcessGateOptions<K>): GateFixture<GateProcess, K>;
export function useGate<K extends Record<string, KeySpec> = {}>(options: InProcessGateOptions<K>): GateFixture<InProcessServer, K>;
export function useGate<K extends Record<string, KeySpec> = {}>(options: UnitGateOptions<K>): GateFixture<UnitGate, K>;
export function useGate<K extends Record<string, KeySpec>>(
  options: ProcessGateOptions<K> | InProcessGateOptions<K> | UnitGateOptions<K> = {},
): GateFixture<GateProcess | InProcessServer | UnitGate, K> {
  let started: GateProcess | InProcessServer | UnitGate | undefined;
  const specs = Object.entries(options.keys ?? {}) as [string, KeySpec][];
  const keys = Object.fromEntries(specs.map(([name]) => [name, {} as IssuedKey])) as { [N in keyof K]: IssuedKey };

  beforeAll(async () => {
    const home = await atStart(options.home);
    if (options.kind === 'in-process') {
      const { InProcessServer } = await import('./in-process-server.js');
      started = await InProcessServer.start((await atStart(options.settings)) ?? {}, home, (await atStart(options.env)) ?? {});
    } else if (options.kind === 'unit') {
      const { UnitGate } = await import('./unit-gate.js');
      const [env, settings] = [await atStart(options.env), await atStart(options.settings)];
      started = await UnitGate.open({ ...(env === undefined ? {} : { env }), ...(settings === undefined ? {} : { settings }), ...(home === undefined ? {} : { home }) });
    } else {
      const start = { env: (await atStart(options.env)) ?? {}, home, asBin: options.asBin === true };
      started = options.ownIssuer === true ? await startGateWithIssuer(start) : await GateProcess.start(start);
    }
    for (const [name, spec] of specs) {
      const { role, ...extra } = typeof spec === 'string' ? { role: spec } : spec;
      const answer = await started.socket('gv.keys', { action: 'issue', role, ...extra });
      if (answer.error) throw new Error(`useGate: issuing key ${name} (${role}) failed: ${answer.error.message}`);
      Object.assign(keys[name as keyof K], { key: answer.result.key, identity: `key:${answer.result.key_id}`, keyId: answer.result.key_id });
    }
  }, options.timeout);

  afterAll(async () => {
    await started?.stop();
  });

  const gate = standIn(() => started, options.kind === 'in-process' ? 'InProcessServer' : options.kind === 'unit' ? 'UnitGate' : 'GateProcess');
  return {
    gate,
    keys,
    ingestAnswer: (key, params) => ingestAnswer(gate, key, params),
    ingestResult: (key, params) => ingestResult(gate, key, params),
    ingestId: (key, params) => ingestId(gate, key, params),
  };
}

/** The option's value: the function called, when it is one. */
async function atStart<T>(option: AtStart<T> | undefined): Promise<T | undefined> {
  return typeof option === 'function' ? await (option as () => T | Promise<T>)() : option;
}

/**
 * An object that forwards every property read, write and method call to the gate `current`
 * gives, once there is one. Methods are bound to the gate itself, so they work passed along
 * (`new ReplacementRows(gate, ...)`, `const { rpc } = gate`).
 */
function standIn<G extends object>(current: () => G | undefined, kind: string): G {
  const target = (): G => {
    const gate = current();
    if (gate === undefined) throw new Error(`useGate: the ${kind} is not started yet; read it in a test or a hook registered after useGate`);
    return gate;
  };
  return new Proxy({} as G, {
    get(_, property) {
      const gate = target();
      const value = Reflect.get(gate, property, gate);
      return typeof value === 'function' ? value.bind(gate) : value;
    },
    set: (_, property, value) => Reflect.set(target(), property, value),
    has: (_, property) => Reflect.has(target(), property),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, property) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), property);
      // A proxy may not report a property its target lacks as non-configurable.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
}
