import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The compiled gate: its pools load their worker entries from dist/ beside it.
import { Gate } from '../../dist/src/gate.js';
import { resolveHome } from '../../dist/src/config/home.js';
import { loadConfig } from '../../dist/src/config/load-config.js';
import { call } from '../../dist/src/verbs/dispatch.js';
import type { Caller } from '../../dist/src/access/caller.js';
import type { Log } from '../../dist/src/log.js';
import type { Clock } from '../../dist/src/clock.js';
import type { GateOptions } from '../../dist/src/gate.js';

export { Gate };

const caller = (identity: string, role: Caller['role']): Caller => ({
  identity,
  role,
  kind: 'program',
  scope: null,
  demo: false,
  surface: 'http',
});

/**
 * A real Gate opened in this process on a temp home, for what no verb shows: the vector
 * index as VectorRecall answers it. Callers go through the real dispatcher's `call`.
 */
export class InProcessGate {
  readonly lines: string[] = [];
  readonly agent = caller('key:agent-a', 'agent');
  readonly otherAgent = caller('key:agent-b', 'agent');
  readonly reviewer = caller('key:reviewer', 'reviewer');
  readonly admin = caller('uid:0', 'admin');
  gate!: Gate;

  private constructor(
    readonly home: string,
    private readonly flags: Record<string, unknown>,
    private readonly clock: Clock | undefined,
    private readonly fsyncFile: GateOptions['fsyncFile'],
  ) {}

  /**
   * `clock` replaces the system clock (time-to-live and away tests move it by hand);
   * `fsyncFile` the WAL's fsync (durability tests hold it).
   */
  static open(flags: Record<string, unknown> = {}, clock?: Clock, fsyncFile?: GateOptions['fsyncFile']): InProcessGate {
    const parent = mkdtempSync(join(tmpdir(), 'gate-vector-'));
    const g = new InProcessGate(join(parent, 'home'), flags, clock, fsyncFile);
    mkdirSync(g.home, { recursive: true });
    g.reopen();
    return g;
  }

  /** Opens (again) the same home, as a restart would. */
  reopen(): void {
    const paths = resolveHome(this.home);
    // As in test gates over HTTP (KEYS_PROMOTE): the reviewer caller promotes in auto review under solo-reviewer.
    const { config } = loadConfig(paths.config, {}, { 'spaces.main_policy': 'auto', 'review.quorum_profile': 'solo-reviewer', ...this.flags });
    const log: Log = {
      info: (m) => this.lines.push(`info ${m}`),
      warn: (m) => this.lines.push(`warn ${m}`),
      debug: () => undefined,
      error: (m, e) => this.lines.push(`error ${m}${e instanceof Error ? `: ${e.message}` : ''}`),
      enabled: (level) => level !== 'debug' && level !== 'trace',
      flush: () => undefined,
    };
    this.gate = Gate.open(paths, config, {
      log,
      ...(this.clock === undefined ? {} : { clock: this.clock }),
      ...(this.fsyncFile === undefined ? {} : { fsyncFile: this.fsyncFile }),
    });
  }

  call(who: Caller, method: string, params: unknown): Promise<any> {
    return call(this.gate, who, method, params);
  }

  async ingest(text: string, who: Caller = this.agent, extra: Record<string, unknown> = {}): Promise<{ artifact_id: string; state: string; rowid: number }> {
    const r = await this.call(who, 'gv.ingest', { content: text, workarea: 'tests/vector', kind: 'memory', source_uri: 'test://vector', ...extra });
    return { ...r, rowid: this.gate.store.artifacts.byId(r.artifact_id)!.rowid };
  }

  /** The ids of the agent's own held rows a lexical gv.recall of `query` finds. */
  async ownHeldHits(query: string): Promise<string[]> {
    const hits = (await this.call(this.agent, 'gv.recall', { query, mode: 'lexical' })).hits as Array<{ artifact_id: string; held: boolean }>;
    return hits.filter((h) => h.held).map((h) => h.artifact_id);
  }

  /** A reviewer's promotion: the whole masked body read first, as a signature needs. */
  async promote(id: string): Promise<any> {
    await this.call(this.reviewer, 'gv.node', { artifact_id: id, body: true });
    return this.call(this.reviewer, 'gv.promote', { artifact_id: id });
  }

  /** Waits until the embed stage has nothing left to embed. */
  async settled(timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.gate.recall.vector.ready.pending > 0) {
      if (Date.now() > until) throw new Error(`the embed stage still has ${this.gate.recall.vector.ready.pending} rows after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // Placement moves ride the next group commit.
    await new Promise((r) => setTimeout(r, 20));
  }

  close(): Promise<void> {
    return this.gate.close();
  }
}

export const query = (text: string, extra: Partial<{ limit: number; includeProvisional: boolean; includeSuperseded: boolean; spaces: string[] }> = {}) => ({
  text,
  spaces: ['main'],
  limit: 10,
  includeProvisional: true,
  includeSuperseded: false,
  ...extra,
});
