import type Database from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { HelloBoard } from './hello-board.js';
import { TokenVault } from './token-vault.js';
import type { RunnerSettings } from '../domain/runner-settings.js';

/** `gv.runner_token` (docs/protocol.md#gvrunner_keys-and-gvrunner_token): a served token not acknowledged by a hello within this is lost. */
export const TOKEN_ACK_MS = 600_000;

export const TOKEN_STATES = ['none', 'waiting', 'served', 'held', 'lost', 'unreadable'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];
export type KeysState = 'waiting' | 'issued' | 'held';

export interface RunnerKeyRow {
  key_id: string;
  label: string | null;
  role: string;
  revoked_at: number | null;
  expires_at: number | null;
}

export interface AssignmentRow {
  space: string;
  runner: string;
  slots: string;
  sheet: string;
  key_days: number;
  assigned_ts: number;
  batch: number;
  keys_state: KeysState;
  batch_instance: string | null;
  keys_ts: number | null;
}

export interface TokenRow {
  runner: string;
  version: number;
  origin: string | null;
  state: 'waiting' | 'served' | 'none';
  set_ts: number | null;
  served_ts: number | null;
  served_instance: string | null;
}

export interface MemberKeyRow {
  key_id: string;
  runner: string;
  space: string;
  slot: string;
  batch: number;
  revoked: number;
}

export interface CrewTimings {
  helloIntervalMs: number;
  goneMs: number;
  waitMinutes: number;
}

export const slotsOf = (a: AssignmentRow): string[] => JSON.parse(a.slots) as string[];

/**
 * Runners and their crews: the journaled views (settings, assignments, key batches, token
 * states), the newest hello per key in memory, and the token vault.
 */
export class Crews {
  readonly hellos = new HelloBoard();
  readonly vault: TokenVault;
  private readonly s: Record<string, Database.Statement>;

  constructor(
    db: Database.Database,
    deploymentSeed: Buffer,
    private readonly clock: Clock,
    readonly timings: CrewTimings,
  ) {
    this.vault = new TokenVault(db, deploymentSeed);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      key: p('SELECT key_id, label, role, revoked_at, expires_at FROM api_keys WHERE key_id = ?'),
      settings: p('SELECT settings, settings_version, first_seen_ts FROM runners WHERE runner = ?'),
      everyRunner: p(`SELECT key_id FROM api_keys WHERE role = 'runner' ORDER BY issued_at, key_id`),
      assignment: p('SELECT * FROM runner_assignments WHERE space = ?'),
      assignmentsOf: p('SELECT * FROM runner_assignments WHERE runner = ? ORDER BY space'),
      token: p('SELECT * FROM runner_tokens WHERE runner = ?'),
      liveMembers: p('SELECT * FROM runner_member_keys WHERE space = ? AND batch = ? AND revoked = 0 ORDER BY slot'),
      everyMemberOfSpace: p('SELECT key_id FROM runner_member_keys WHERE space = ?'),
      liveMembersOfSpace: p('SELECT * FROM runner_member_keys WHERE space = ? AND revoked = 0 ORDER BY slot'),
      member: p('SELECT * FROM runner_member_keys WHERE key_id = ?'),
      batchExpiry: p(
        `SELECT min(k.expires_at) AS at FROM runner_member_keys m JOIN api_keys k ON k.key_id = m.key_id WHERE m.space = ? AND m.batch = ? AND m.revoked = 0`,
      ),
      releases: p('SELECT space FROM runner_releases WHERE runner = ? ORDER BY space'),
    };
  }

  /** The key when it is a runner key that can still be used (`not_a_runner` otherwise: docs/protocol.md#gvrunner_token_set). */
  activeRunner(keyId: string): RunnerKeyRow | undefined {
    const key = this.s.key!.get(keyId) as RunnerKeyRow | undefined;
    if (key === undefined || key.role !== 'runner' || key.revoked_at !== null) return undefined;
    if (key.expires_at !== null && key.expires_at <= this.clock.now()) return undefined;
    return key;
  }

  runnerIds(): string[] {
    return (this.s.everyRunner!.all() as { key_id: string }[]).map((r) => r.key_id);
  }

  keyRow(keyId: string): RunnerKeyRow | undefined {
    return this.s.key!.get(keyId) as RunnerKeyRow | undefined;
  }

  /** The runner's settings and their version, or null before any gv.runner_set. */
  settingsOf(runner: string): { settings: RunnerSettings; version: number } | null {
    const row = this.s.settings!.get(runner) as { settings: string | null; settings_version: number } | undefined;
    return row === undefined || row.settings === null ? null : { settings: JSON.parse(row.settings) as RunnerSettings, version: row.settings_version };
  }

  /** When the runner's first hello was heard (journaled runner-first-seen), or null. */
  firstSeen(runner: string): number | null {
    return (this.s.settings!.get(runner) as { first_seen_ts: number | null } | undefined)?.first_seen_ts ?? null;
  }

  assignment(space: string): AssignmentRow | undefined {
    return this.s.assignment!.get(space) as AssignmentRow | undefined;
  }

  assignmentsOf(runner: string): AssignmentRow[] {
    return this.s.assignmentsOf!.all(runner) as AssignmentRow[];
  }

  /** Member keys of the space's current batch that are not revoked. */
  liveMembers(space: string, batch: number): MemberKeyRow[] {
    return this.s.liveMembers!.all(space, batch) as MemberKeyRow[];
  }

  /** Every unrevoked member key issued for the space, whatever its batch. */
  liveMembersOfSpace(space: string): MemberKeyRow[] {
    return this.s.liveMembersOfSpace!.all(space) as MemberKeyRow[];
  }

  /** When the live keys of a batch expire, or null when none is live. */
  batchExpiry(space: string, batch: number): number | null {
    return (this.s.batchExpiry!.get(space, batch) as { at: number | null }).at;
  }

  /** Identities of every member key ever issued for the crew, revoked ones too: what they wrote was the crew's. */
  everyMember(space: string): Set<string> {
    return new Set((this.s.everyMemberOfSpace!.all(space) as { key_id: string }[]).map((r) => `key:${r.key_id}`));
  }

  /** The crew whose unrevoked member key this identity is, or null. */
  crewOf(identity: string): MemberKeyRow | null {
    if (!identity.startsWith('key:')) return null;
    const member = this.memberKey(identity.slice('key:'.length));
    return member === undefined || member.revoked === 1 ? null : member;
  }

  memberKey(keyId: string): MemberKeyRow | undefined {
    return this.s.member!.get(keyId) as MemberKeyRow | undefined;
  }

  pendingReleases(runner: string): string[] {
    return (this.s.releases!.all(runner) as { space: string }[]).map((r) => r.space);
  }

  tokenRow(runner: string): TokenRow | undefined {
    return this.s.token!.get(runner) as TokenRow | undefined;
  }

  /**
   * Runner token states (docs/protocol.md#other-state-words). waiting: sealed, not taken (unreadable when its bytes no
   * longer open); served: taken, not yet acknowledged; held: a hello acknowledged it and the
   * newest hello still holds it; lost: not acknowledged within 600 s, or a later hello no
   * longer holds it.
   */
  tokenState(runner: string): TokenState {
    const row = this.tokenRow(runner);
    if (row === undefined || row.state === 'none') return 'none';
    if (row.state === 'waiting') return this.vault.open(runner, row.version) === 'unreadable' ? 'unreadable' : 'waiting';
    const acked = this.vault.acknowledgedAt(runner, row.version);
    if (acked === null) return this.clock.now() - row.served_ts! > TOKEN_ACK_MS ? 'lost' : 'served';
    const newest = this.hellos.newestOf(runner);
    if (newest !== undefined && newest.at >= acked && (newest.report.token.version !== row.version || !newest.report.token.held)) return 'lost';
    return 'held';
  }

  /** Whether the runner has been heard recently enough for its crews to take questions. */
  heard(runner: string): boolean {
    return this.hellos.heardWithin(runner, this.clock.now(), this.timings.goneMs);
  }
}
