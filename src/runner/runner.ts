import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { GateClient, GateClientError } from '@gate/client';
import { RUNNER_HELLO_FORMAT } from '../domain/runner-hello.js';
import { settingsDefaults, type RunnerSettings } from '../domain/runner-settings.js';
import { localFacts, versionOf, type LocalFacts, type Refusal } from './local-facts.js';
import { QuestionDesk, type CrewOnDuty } from './question-desk.js';
import { BudgetStateFile } from './budget-state-file.js';
import { DayBudget } from './day-budget.js';

/** This program's own version, reported as `runner` in every hello. */
export const RUNNER_VERSION = '1.0.0';

export type RunnerLog = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

export interface RunnerOptions {
  /** The gate's base URL; plain http only to a loopback host. */
  url: string;
  /** The runner key (never logged), and the variable it came from (withheld from commands). */
  key: string;
  keyEnv: string;
  /** What this host can run: crews and members at once (hello `capacity`). */
  crews: number;
  members: number;
  /** The harness command looked for on PATH and reported (hello `facts.claude`). */
  harness: string;
  /** Where the day's spending is kept across restarts (one file per runner key). */
  stateDir: string;
  log: RunnerLog;
}

interface Assignment {
  space: string;
  slots: string[];
  sheet: string;
  keys: 'waiting' | 'issued' | 'held';
}

const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** A printable host name of at most 64 characters, as the hello format asks. */
const hostName = () => (hostname().replace(/\p{C}/gu, '').slice(0, 64) || 'localhost');

/** The hello's `backend`: the endpoint's host in lower case, or `default` for the default provider. */
const backendOf = (s: RunnerSettings | null) => (s?.base_url ? new URL(s.base_url).hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/:/g, '-') : 'default');

/**
 * The reference runner (`gate runner`): says hello on its poll intervals (never sooner
 * than the gate allows), reports its facts as they are, applies the settings the gate
 * sends, takes its crews' member keys and its token, and hands routed questions to the
 * question desk, which runs the crews' command for each.
 */
export class Runner {
  readonly instance = randomBytes(16).toString('hex');
  private readonly gate: GateClient;
  private settings: RunnerSettings | null = null;
  private settingsVersion = 0;
  private applied = { version: 0, ok: true };
  private facts: LocalFacts;
  private refused: Refusal[] = [];
  private assignments: Assignment[] = [];
  /** Member keys held per space: slot to {role, key}. */
  private readonly held = new Map<string, Map<string, { role: string; key: string }>>();
  private readonly keysAskedAt = new Map<string, number>();
  /** Crews whose keys the gate holds served to another instance, said once in the log. */
  private readonly toldServedElsewhere = new Set<string>();
  private readonly memberClients = new Map<string, GateClient>();
  private token: { version: number; value: string; origin: string | null } | null = null;
  private tokenState = 'none';
  private nextHelloAt = 0;
  private lastHelloAt = 0;
  /** The shortest gap the gate accepted between hellos, learned from its too_soon refusals. */
  private helloGapMs = 0;
  private readonly git: string;
  private readonly harnessVersion: string;
  private readonly desk: QuestionDesk;
  private readonly stateFile: BudgetStateFile;
  private stopping = false;
  private wake: (() => void) | null = null;

  constructor(private readonly options: RunnerOptions) {
    this.gate = this.client(options.key, 'curation');
    this.git = versionOf('git');
    const found = localFacts(null, options.harness, { git: this.git });
    this.facts = found.facts;
    this.harnessVersion = found.facts.claude.found ? versionOf(found.facts.claude.path) : '';
    this.stateFile = BudgetStateFile.forKey(options.stateDir, options.key);
    this.desk = new QuestionDesk({ url: options.url, keyEnv: options.keyEnv, log: options.log, client: (key) => this.memberClient(key), wake: () => this.wake?.(), budget: this.dayBudget() });
  }

  /**
   * The day's budget as the state file left it: an unreadable file throws (RunnerStateError)
   * before anything starts; a write that fails later is logged and the count goes on in memory.
   */
  private dayBudget(): DayBudget {
    const file = this.stateFile;
    const log = this.options.log;
    return new DayBudget({
      load: () => file.read(),
      save(spent) {
        try {
          file.write(spent);
        } catch (error) {
          log('error', 'runner state file not written: a restart would forget this spending', { file: file.path, error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
  }

  /** One client per member key while it is held (each keeps its own connection pool). */
  private memberClient(key: string): GateClient {
    let client = this.memberClients.get(key);
    if (client === undefined) {
      client = this.client(key, 'knowledge');
      this.memberClients.set(key, client);
    }
    return client;
  }

  private dropMembers(space: string): void {
    for (const m of this.held.get(space)?.values() ?? []) {
      void this.memberClients.get(m.key)?.close();
      this.memberClients.delete(m.key);
    }
    this.held.delete(space);
  }

  client(bearer: string, scope: 'curation' | 'knowledge'): GateClient {
    return new GateClient({ transport: 'rpc', baseUrl: this.options.url, bearer, scope, allowPlainHttpLoopback: isLoopback(this.options.url) });
  }

  private get effective(): RunnerSettings {
    return this.settings ?? settingsDefaults('');
  }

  /** Runs until stop(): one tick, then a sleep of poll_seconds while busy, idle_poll_seconds otherwise. */
  async run(): Promise<void> {
    this.options.log('info', 'runner started', { instance: this.instance, url: this.options.url, state_file: this.stateFile.path });
    while (!this.stopping) {
      await this.tick();
      if (this.stopping) break;
      const s = this.effective;
      const seconds = this.desk.busy() ? s.poll_seconds : s.idle_poll_seconds;
      const untilHello = Math.max(0, this.nextHelloAt - Date.now());
      await this.sleep(Math.min(seconds * 1000, Math.max(untilHello, 50)));
    }
    await this.desk.stopAll();
    for (const space of [...this.held.keys()]) this.dropMembers(space);
    await this.gate.close();
    this.options.log('info', 'runner stopped', { instance: this.instance });
  }

  /** Ends the loop; running commands get SIGTERM, then SIGKILL after grace_seconds. */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private async tick(): Promise<void> {
    if (Date.now() >= this.nextHelloAt) await this.hello();
    for (const a of this.assignments) await this.keysFor(a);
    if (this.tokenState === 'waiting' && this.token === null) await this.takeToken();
    const s = this.effective;
    await this.desk.poll(this.crewsOnDuty(), {
      settings: s,
      canStart: !s.paused && this.refused.length === 0 && this.settings !== null,
      token: this.token,
    });
  }

  private crewsOnDuty(): CrewOnDuty[] {
    return this.assignments
      .map((a) => ({ space: a.space, sheet: a.sheet, members: [...(this.held.get(a.space) ?? new Map()).entries()].map(([slot, m]) => ({ slot, ...m })) }))
      .filter((c) => c.members.length > 0);
  }

  private helloBody(): Record<string, unknown> {
    const s = this.effective;
    const serving = new Map<string, { space: string; running: number; holds: string[] }>();
    for (const a of this.assignments) serving.set(a.space, { space: a.space, running: 0, holds: [...(this.held.get(a.space)?.keys() ?? [])] });
    // A space still running commands after it was taken away stays listed until they end.
    for (const [space, running] of this.desk.runningBySpace()) {
      const entry = serving.get(space) ?? { space, running: 0, holds: [] };
      entry.running = running;
      serving.set(space, entry);
    }
    return {
      format: RUNNER_HELLO_FORMAT,
      instance: this.instance,
      runner: RUNNER_VERSION,
      harness: this.harnessVersion,
      host: hostName(),
      backend: backendOf(this.settings),
      models: Object.fromEntries(Object.entries(s.models).filter(([k]) => k !== 'retention_days_accepted')),
      // The command chooses its model from GATE_MODEL; this runner cannot hold it to a floor.
      models_floor: false,
      capacity: { crews: this.options.crews, members: this.options.members },
      recorded: this.applied,
      budget: this.desk.budgetReport(s.budget_per_day),
      serving: [...serving.values()].slice(0, 16),
      facts: this.facts,
      settings_version: this.settingsVersion,
      refused: this.refused,
      token: { version: this.token?.version ?? 0, held: this.token !== null },
    };
  }

  private async hello(): Promise<void> {
    this.desk.checkpoint();
    const sentAt = Date.now();
    let answer: Record<string, unknown>;
    try {
      answer = await this.gate.call('gv.runner_hello', this.helloBody() as never);
    } catch (error) {
      if (error instanceof GateClientError && error.data?.['reason'] === 'too_soon') {
        const retry = Number(error.data['retry_after_ms'] ?? 1000);
        // The gap is learned from this instance's own accepted hellos only: a restarted runner's
        // first hello, refused because the instance before it helloed a moment ago, has none to
        // measure from (measured from 0, the gap was decades and the runner never helloed again).
        if (this.lastHelloAt > 0) this.helloGapMs = Math.max(this.helloGapMs, sentAt - this.lastHelloAt + retry);
        this.nextHelloAt = sentAt + retry;
        return;
      }
      this.options.log('warn', 'hello failed', { error: error instanceof Error ? error.message : String(error) });
      this.nextHelloAt = sentAt + this.effective.poll_seconds * 1000;
      return;
    }
    this.lastHelloAt = sentAt;
    if (answer['settings'] !== undefined) this.apply(answer['settings'] as RunnerSettings, answer['settings_version'] as number);
    // After applying: the intervals are the settings' just received.
    const s = this.effective;
    this.nextHelloAt = sentAt + Math.max(this.helloGapMs, (this.desk.busy() ? s.poll_seconds : s.idle_poll_seconds) * 1000);
    this.tokenState = answer['token'] as string;
    // A cleared or replaced token is no longer this runner's to use.
    if (this.tokenState === 'none' || this.tokenState === 'waiting') this.token = null;
    this.assignments = answer['assignments'] as Assignment[];
    const assigned = new Set(this.assignments.map((a) => a.space));
    for (const space of [...this.held.keys()]) {
      if (assigned.has(space)) continue;
      this.desk.withdraw(space);
      this.dropMembers(space);
      this.options.log('info', 'crew released', { space });
    }
  }

  private apply(settings: RunnerSettings, version: number): void {
    this.settings = settings;
    this.settingsVersion = version;
    const found = localFacts(settings, this.options.harness, { git: this.git });
    this.facts = found.facts;
    this.refused = found.refused;
    this.applied = { version, ok: found.refused.length === 0 };
    this.options.log('info', 'settings applied', { settings_version: version, refused: found.refused });
  }

  /** Asks for a crew's keys when the gate has none out for it, or when an answer with them never arrived; at most once per key_seconds. */
  private async keysFor(a: Assignment): Promise<void> {
    const last = this.keysAskedAt.get(a.space) ?? 0;
    // The assignment's key state is the last hello's: until a hello follows the last ask, it is stale.
    if (last > this.lastHelloAt) return;
    // Refused (or revoked): what this runner holds no longer works.
    if (a.keys === 'waiting') this.dropMembers(a.space);
    const holding = this.held.has(a.space);
    if (a.keys === 'held' && !holding && !this.toldServedElsewhere.has(a.space)) {
      // Keys live in memory only: after a restart the gate still counts the last instance's batch as held.
      this.toldServedElsewhere.add(a.space);
      this.options.log('warn', "crew keys were served to an earlier instance of this runner and are not served twice: ask the admin to reissue them (gv.runner_assign with reissue: true)", { space: a.space });
    }
    if (a.keys === 'held' || (a.keys === 'issued' && holding)) return;
    if (last !== 0 && Date.now() - last < this.effective.key_seconds * 1000) return;
    this.keysAskedAt.set(a.space, Date.now());
    try {
      const answer = await this.gate.call('gv.runner_keys', { space: a.space });
      const members = answer['members'] as Array<{ slot: string; role: string; key: string }>;
      this.dropMembers(a.space);
      this.held.set(a.space, new Map(members.map((m) => [m.slot, { role: m.role, key: m.key }])));
      this.options.log('info', 'crew keys taken', { space: a.space, members: members.length });
    } catch (error) {
      this.options.log('warn', 'crew keys refused', { space: a.space, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private async takeToken(): Promise<void> {
    try {
      const answer = await this.gate.call('gv.runner_token');
      this.token = { version: answer['version'] as number, value: answer['token'] as string, origin: (answer['origin'] as string | null) ?? null };
      this.options.log('info', 'token taken', { version: this.token.version });
    } catch (error) {
      this.options.log('warn', 'token refused', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
