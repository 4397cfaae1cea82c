import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { canonicalJson } from '../forms/canonical-json.js';
import { defineView } from './define-view.js';

/**
 * Runners and crews as the journal tells them (docs/protocol.md#other-state-words, docs/runners.md): each runner's
 * settings, its token's journaled state (the sealed bytes live outside the journal, in
 * the token vault), each space's assignment with the state of its key batch, the member
 * keys issued per slot, and the releases a runner has yet to confirm in a hello.
 */
export function runnerTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.runners (
      runner TEXT PRIMARY KEY,
      settings TEXT,
      settings_version INTEGER NOT NULL,
      settings_ts INTEGER,
      first_seen_ts INTEGER,
      first_seen_instance TEXT
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.runner_tokens (
      runner TEXT PRIMARY KEY,
      version INTEGER NOT NULL,
      origin TEXT,
      state TEXT NOT NULL,
      set_ts INTEGER,
      served_ts INTEGER,
      served_instance TEXT
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.runner_assignments (
      space TEXT PRIMARY KEY,
      runner TEXT NOT NULL,
      slots TEXT NOT NULL,
      sheet TEXT NOT NULL,
      key_days INTEGER NOT NULL,
      assigned_ts INTEGER NOT NULL,
      batch INTEGER NOT NULL,
      keys_state TEXT NOT NULL,
      batch_instance TEXT,
      keys_ts INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.runner_assignments_by_runner ON runner_assignments(runner);
    CREATE TABLE IF NOT EXISTS ${schema}.runner_member_keys (
      key_id TEXT PRIMARY KEY,
      runner TEXT NOT NULL,
      space TEXT NOT NULL,
      slot TEXT NOT NULL,
      batch INTEGER NOT NULL,
      revoked INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.runner_member_keys_by_space ON runner_member_keys(space, batch);
    CREATE TABLE IF NOT EXISTS ${schema}.runner_releases (
      runner TEXT NOT NULL,
      space TEXT NOT NULL,
      since_ts INTEGER NOT NULL,
      PRIMARY KEY (runner, space)
    ) WITHOUT ROWID;
  `;
}

export const runnerDigestQueries = (schema: string) => ({
  runners: `SELECT * FROM ${schema}.runners ORDER BY runner`,
  runner_tokens: `SELECT * FROM ${schema}.runner_tokens ORDER BY runner`,
  runner_assignments: `SELECT * FROM ${schema}.runner_assignments ORDER BY space`,
  runner_member_keys: `SELECT * FROM ${schema}.runner_member_keys ORDER BY key_id`,
  runner_releases: `SELECT * FROM ${schema}.runner_releases ORDER BY runner, space`,
});

/** What an apikey-issued event adds when the key is a crew member's (gv.runner_keys). */
export interface MemberOfBatch {
  runner: string;
  space: string;
  slot: string;
  batch: number;
  instance: string;
}

export class RunnerReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      settings: p(
        `INSERT INTO ${schema}.runners (runner, settings, settings_version, settings_ts) VALUES (?, ?, ?, ?)
         ON CONFLICT(runner) DO UPDATE SET settings = excluded.settings, settings_version = excluded.settings_version, settings_ts = excluded.settings_ts`,
      ),
      firstSeen: p(
        `INSERT INTO ${schema}.runners (runner, settings, settings_version, settings_ts, first_seen_ts, first_seen_instance) VALUES (?, NULL, 0, NULL, ?, ?)
         ON CONFLICT(runner) DO UPDATE SET first_seen_ts = coalesce(first_seen_ts, excluded.first_seen_ts), first_seen_instance = coalesce(first_seen_instance, excluded.first_seen_instance)`,
      ),
      tokenSet: p(
        `INSERT INTO ${schema}.runner_tokens (runner, version, origin, state, set_ts, served_ts, served_instance) VALUES (?, ?, ?, 'waiting', ?, NULL, NULL)
         ON CONFLICT(runner) DO UPDATE SET version = excluded.version, origin = excluded.origin, state = 'waiting', set_ts = excluded.set_ts, served_ts = NULL, served_instance = NULL`,
      ),
      tokenCleared: p(`UPDATE ${schema}.runner_tokens SET state = 'none', served_ts = NULL, served_instance = NULL WHERE runner = ?`),
      tokenServed: p(`UPDATE ${schema}.runner_tokens SET state = 'served', served_ts = ?, served_instance = ? WHERE runner = ? AND version = ?`),
      assignmentOf: p(`SELECT runner FROM ${schema}.runner_assignments WHERE space = ?`),
      assign: p(
        `INSERT INTO ${schema}.runner_assignments (space, runner, slots, sheet, key_days, assigned_ts, batch, keys_state, batch_instance, keys_ts)
         VALUES (@space, @runner, @slots, @sheet, @key_days, @ts, 0, 'waiting', NULL, NULL)
         ON CONFLICT(space) DO UPDATE SET runner = excluded.runner, slots = excluded.slots, sheet = excluded.sheet,
           key_days = excluded.key_days, assigned_ts = excluded.assigned_ts,
           keys_state = CASE WHEN @revokes THEN 'waiting' ELSE keys_state END,
           batch_instance = CASE WHEN @revokes THEN NULL ELSE batch_instance END,
           keys_ts = CASE WHEN @revokes THEN NULL ELSE keys_ts END`,
      ),
      unassign: p(`DELETE FROM ${schema}.runner_assignments WHERE space = ?`),
      pendRelease: p(`INSERT OR IGNORE INTO ${schema}.runner_releases (runner, space, since_ts) VALUES (?, ?, ?)`),
      unpendRelease: p(`DELETE FROM ${schema}.runner_releases WHERE runner = ? AND space = ?`),
      batchIssued: p(`UPDATE ${schema}.runner_assignments SET batch = ?, keys_state = 'issued', batch_instance = ?, keys_ts = ? WHERE space = ? AND runner = ?`),
      keysHeld: p(`UPDATE ${schema}.runner_assignments SET keys_state = 'held', keys_ts = ? WHERE space = ? AND runner = ? AND batch = ?`),
      keysRefused: p(`UPDATE ${schema}.runner_assignments SET keys_state = 'waiting', batch_instance = NULL, keys_ts = ? WHERE space = ? AND runner = ? AND batch = ?`),
      member: p(`INSERT INTO ${schema}.runner_member_keys (key_id, runner, space, slot, batch, revoked) VALUES (?, ?, ?, ?, ?, 0)`),
      memberRevoked: p(`UPDATE ${schema}.runner_member_keys SET revoked = 1 WHERE key_id = ?`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'runners'>>): void {
    const s = this.s;
    switch (event.type) {
      case 'runner-settings-set':
        // Canonical: live the object is as the verb built it, replayed as the journal stored it.
        s.settings!.run(event.data.runner, canonicalJson(event.data.settings), event.data.settings_version, event.ts);
        return;
      case 'runner-first-seen':
        s.firstSeen!.run(event.data.runner, event.ts, event.data.instance);
        return;
      case 'runner-token-set':
        s.tokenSet!.run(event.data.runner, event.data.version, event.data.origin ?? null, event.ts);
        return;
      case 'runner-token-cleared':
        s.tokenCleared!.run(event.data.runner);
        return;
      case 'runner-token-served':
        s.tokenServed!.run(event.ts, event.data.instance, event.data.runner, event.data.version);
        return;
      case 'runner-assigned': {
        const space = event.data.space;
        const from = (s.assignmentOf!.get(space) as { runner: string } | undefined)?.runner ?? null;
        const to = event.data.runner ?? null;
        // The runner a space leaves holds it until a hello of its own no longer serves it.
        if (from !== null && from !== to) s.pendRelease!.run(from, space, event.ts);
        if (to === null) {
          s.unassign!.run(space);
          return;
        }
        s.unpendRelease!.run(to, space);
        s.assign!.run({
          space,
          runner: to,
          slots: canonicalJson(event.data.slots),
          sheet: event.data.sheet,
          key_days: event.data.key_days,
          ts: event.ts,
          revokes: event.data.restarts_keys === true ? 1 : 0,
        });
        return;
      }
      case 'runner-keys-acknowledged':
        s.keysHeld!.run(event.ts, event.data.space, event.data.runner, event.data.batch);
        return;
      case 'runner-keys-refused':
        s.keysRefused!.run(event.ts, event.data.space, event.data.runner, event.data.batch);
        return;
      case 'runner-released':
        s.unpendRelease!.run(event.data.runner, event.data.space);
        return;
      case 'apikey-issued': {
        const m: MemberOfBatch | undefined = event.data.member;
        if (m === undefined) return;
        s.member!.run(event.data.key_id, m.runner, m.space, m.slot, m.batch);
        s.batchIssued!.run(m.batch, m.instance, event.ts, m.space, m.runner);
        return;
      }
      case 'apikey-revoked':
        s.memberRevoked!.run(event.data.key_id);
        return;
    }
  }
}

/** The runners view (src/crews/ reads it; no read model of the store's). */
export const runnerView = defineView({
  name: 'runners',
  tables: runnerTables,
  digest: runnerDigestQueries,
  reducer: (db, schema) => new RunnerReducer(db, schema),
  reads: {},
});
