import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { ReplacementGroupReads } from './replacement-group-reads.js';
import { defineView } from './define-view.js';

/**
 * The replacement-group view: one row per group and one per row a group names. The moves
 * a group makes on rows (a prepared child enters L3_RATIFIED, activation's promotes and
 * supersedes relations) are folded by the artifacts and relations views from their own
 * events; this view keeps only what the group is and where it stands.
 */
export function replacementGroupTables(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS ${schema}.replacement_groups (
      group_id TEXT PRIMARY KEY,
      space TEXT NOT NULL,
      operation TEXT NOT NULL,
      reason TEXT NOT NULL,
      manifest_digest TEXT NOT NULL,
      policy_revision TEXT,
      proposer TEXT,
      proposed_seq INTEGER NOT NULL,
      proposed_ts INTEGER NOT NULL,
      proposed_event TEXT NOT NULL,
      state TEXT NOT NULL,
      state_seq INTEGER NOT NULL,
      state_ts INTEGER NOT NULL,
      closed_by TEXT,
      closed_event TEXT,
      abort_reason TEXT,
      self_signed INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.replacement_groups_manifest ON replacement_groups(manifest_digest);
    CREATE INDEX IF NOT EXISTS ${schema}.replacement_groups_state ON replacement_groups(state, proposed_seq);
    CREATE TABLE IF NOT EXISTS ${schema}.replacement_members (
      group_id TEXT NOT NULL,
      artifact_id TEXT NOT NULL,
      role TEXT NOT NULL,
      position INTEGER NOT NULL,
      prepared_seq INTEGER,
      prepared_event TEXT,
      PRIMARY KEY (group_id, artifact_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.replacement_members_row ON replacement_members(artifact_id);
  `;
}

export const replacementGroupDigestQueries = (schema: string) => ({
  replacement_groups: `SELECT * FROM ${schema}.replacement_groups ORDER BY group_id`,
  replacement_members: `SELECT * FROM ${schema}.replacement_members ORDER BY group_id, artifact_id`,
});

type Data = Record<string, unknown>;
const text = (d: Data, k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
const ids = (d: Data, k: string) => (Array.isArray(d[k]) ? (d[k] as string[]) : []);

export class ReplacementGroupReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      group: p(`INSERT INTO ${schema}.replacement_groups (group_id, space, operation, reason, manifest_digest,
        policy_revision, proposer, proposed_seq, proposed_ts, proposed_event, state, state_seq, state_ts)
        VALUES (@group_id, @space, @operation, @reason, @manifest_digest, @policy_revision, @proposer,
        @seq, @ts, @event_id, 'PENDING', @seq, @ts)`),
      member: p(`INSERT INTO ${schema}.replacement_members (group_id, artifact_id, role, position) VALUES (?, ?, ?, ?)`),
      prepared: p(`UPDATE ${schema}.replacement_members SET prepared_seq = ?, prepared_event = ?
        WHERE group_id = ? AND artifact_id = ?`),
      close: p(`UPDATE ${schema}.replacement_groups SET state = @state, state_seq = @seq, state_ts = @ts,
        closed_by = @by, closed_event = @event_id, abort_reason = @abort_reason, self_signed = @self_signed
        WHERE group_id = @group_id`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'replacement-groups'>>): void {
    const d: Data = event.data;
    const groupId = text(d, 'group_id');
    switch (event.type) {
      case 'replacement-proposed': {
        this.s.group!.run({
          group_id: groupId,
          space: event.data.space,
          operation: event.data.operation,
          reason: event.data.reason,
          manifest_digest: event.data.manifest_digest,
          policy_revision: text(d, 'policy_revision'),
          proposer: event.by,
          seq: event.seq,
          ts: event.ts,
          event_id: event.event_id,
        });
        ids(d, 'parent_ids').forEach((id, i) => this.s.member!.run(groupId, id, 'parent', i));
        ids(d, 'child_ids').forEach((id, i) => this.s.member!.run(groupId, id, 'child', i));
        return;
      }
      case 'replacement-prepared': {
        const changed = this.s.prepared!.run(event.seq, event.event_id, groupId, event.data.artifact_id).changes;
        if (changed !== 1) throw new Error(`event ${event.seq} prepares a row its group does not name`);
        return;
      }
      case 'replacement-activated':
      case 'replacement-aborted': {
        const changed = this.s.close!.run({
          state: event.type === 'replacement-activated' ? 'ACTIVATED' : 'ABORTED',
          seq: event.seq,
          ts: event.ts,
          by: event.by,
          event_id: event.event_id,
          abort_reason: text(d, 'reason'),
          self_signed: event.type === 'replacement-activated' && event.data.self_signed === true ? 1 : 0,
          group_id: groupId,
        }).changes;
        if (changed !== 1) throw new Error(`event ${event.seq} (${event.type}) names a group the view does not hold`);
        return;
      }
    }
  }
}

/** The replacement groups view. */
export const replacementGroupView = defineView({
  name: 'replacement-groups',
  tables: replacementGroupTables,
  digest: replacementGroupDigestQueries,
  reducer: (db, schema) => new ReplacementGroupReducer(db, schema),
  reads: {
    replacementGroups: ({ db }) => new ReplacementGroupReads(db),
  },
});
