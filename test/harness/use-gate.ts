import { afterAll, beforeAll } from 'vitest';
import { GateProcess, type RpcAnswer } from './gate-process.js';
// Type only: a GateProcess test must not load the gate itself (dist/src/server.js) into its process.
import type { InProcessServer } from './in-process-server.js';
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

interface CommonOptions<K extends Record<string, KeySpec>> {
  /** Keys issued over the socket once the gate listens, in this order, by name: `{ a: 'agent', b: 'agent' }` gives `keys.a`, `keys.b`. */
  keys?: K;
  /** The beforeAll's bound in ms (vitest's hookTimeout, 60 s, when not given). */
  timeout?: number;
}

/** A real `gate serve` process (GateProcess): main in auto review under solo-reviewer unless `env` says otherwise. */
export interface ProcessGateOptions<K extends Record<string, KeySpec>> extends CommonOptions<K> {
  kind?: 'process';
  /** Environment for the process, over KEYS_PROMOTE. */
  env?: Record<string, string>;
}

/** `serve()` in this process (InProcessServer), with a movable clock (`gate.clock`). */
export interface InProcessGateOptions<K extends Record<string, KeySpec>> extends CommonOptions<K> {
  kind: 'in-process';
  /** Settings as `serve()` takes them (`{ 'spaces.main_policy': 'auto' }`). */
  settings?: Record<string, unknown>;
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
 */
export function useGate<K extends Record<string, KeySpec> = {}>(options?: ProcessGateOptions<K>): GateFixture<GateProcess, K>;
export function useGate<K extends Record<string, KeySpec> = {}>(options: InProcessGateOptions<K>): GateFixture<InProcessServer, K>;
export function useGate<K extends Record<string, KeySpec>>(
  options: ProcessGateOptions<K> | InProcessGateOptions<K> = {},
): GateFixture<GateProcess | InProcessServer, K> {
  let started: GateProcess | InProcessServer | undefined;
  const specs = Object.entries(options.keys ?? {}) as [string, KeySpec][];
  const keys = Object.fromEntries(specs.map(([name]) => [name, {} as IssuedKey])) as { [N in keyof K]: IssuedKey };

  beforeAll(async () => {
    if (options.kind === 'in-process') {
      const { InProcessServer } = await import('./in-process-server.js');
      started = await InProcessServer.start(options.settings ?? {});
    } else {
      started = await GateProcess.start({ env: options.env ?? {} });
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

  const gate = standIn(() => started, options.kind === 'in-process' ? 'InProcessServer' : 'GateProcess');
  return {
    gate,
    keys,
    ingestAnswer: (key, params) => ingestAnswer(gate, key, params),
    ingestResult: (key, params) => ingestResult(gate, key, params),
    ingestId: (key, params) => ingestId(gate, key, params),
  };
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
