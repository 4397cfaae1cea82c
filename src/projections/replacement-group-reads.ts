import type Database from 'better-sqlite3';

export const GROUP_STATES = ['PENDING', 'ACTIVATED', 'ABORTED'] as const;
export type GroupState = (typeof GROUP_STATES)[number];
export const GROUP_OPERATIONS = ['merge', 'split', 'supersede'] as const;
export type GroupOperation = (typeof GROUP_OPERATIONS)[number];

export interface GroupRow {
  group_id: string;
  space: string;
  operation: GroupOperation;
  reason: string;
  manifest_digest: string;
  policy_revision: string | null;
  proposer: string | null;
  proposed_seq: number;
  proposed_ts: number;
  proposed_event: string;
  state: GroupState;
  state_seq: number;
  state_ts: number;
  closed_by: string | null;
  closed_event: string | null;
  abort_reason: string | null;
  self_signed: number;
}

export interface MemberRow {
  group_id: string;
  artifact_id: string;
  role: 'parent' | 'child';
  position: number;
  prepared_seq: number | null;
  prepared_event: string | null;
}

/** A group with the rows it names, parents and children each in the proposal's order. */
export interface Group extends GroupRow {
  parents: string[];
  children: MemberRow[];
}

/** Prepared reads of the replacement-group view. */
export class ReplacementGroupReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      byId: p('SELECT * FROM replacement_groups WHERE group_id = ?'),
      standing: p(`SELECT * FROM replacement_groups WHERE manifest_digest = ? AND state != 'ABORTED' ORDER BY proposed_seq LIMIT 1`),
      attempts: p('SELECT count(*) AS n FROM replacement_groups WHERE manifest_digest = ?'),
      members: p('SELECT * FROM replacement_members WHERE group_id = ? ORDER BY role DESC, position'),
      naming: p(`SELECT g.*, m.role AS member_role FROM replacement_members m JOIN replacement_groups g USING (group_id)
        WHERE m.artifact_id = ? ORDER BY g.proposed_seq`),
      newestFirst: p('SELECT * FROM replacement_groups ORDER BY proposed_seq DESC'),
      inStateNewestFirst: p('SELECT * FROM replacement_groups WHERE state = ? ORDER BY proposed_seq DESC'),
    };
  }

  private withMembers(row: GroupRow | undefined): Group | undefined {
    if (row === undefined) return undefined;
    const members = this.s.members!.all(row.group_id) as MemberRow[];
    return {
      ...row,
      parents: members.filter((m) => m.role === 'parent').map((m) => m.artifact_id),
      children: members.filter((m) => m.role === 'child'),
    };
  }

  byId(groupId: string): Group | undefined {
    return this.withMembers(this.s.byId!.get(groupId) as GroupRow | undefined);
  }

  /** The group a repeat of this manifest stands for: the oldest not aborted, if any. */
  standingFor(manifestDigest: string): Group | undefined {
    return this.withMembers(this.s.standing!.get(manifestDigest) as GroupRow | undefined);
  }

  /** How many groups were ever proposed with this manifest (all aborted when a new one is made). */
  attemptsOf(manifestDigest: string): number {
    return (this.s.attempts!.get(manifestDigest) as { n: number }).n;
  }

  /** Every group that names the row, oldest proposal first, with the row's role in it. */
  naming(artifactId: string): Array<GroupRow & { member_role: 'parent' | 'child' }> {
    return this.s.naming!.all(artifactId) as Array<GroupRow & { member_role: 'parent' | 'child' }>;
  }

  /** Groups newest proposal first, optionally in one state, each with its rows. */
  *newestFirst(state?: GroupState): Generator<Group> {
    const rows = (state === undefined ? this.s.newestFirst!.all() : this.s.inStateNewestFirst!.all(state)) as GroupRow[];
    for (const row of rows) yield this.withMembers(row)!;
  }
}

export const namedRows = (group: Group): string[] => [...group.parents, ...group.children.map((c) => c.artifact_id)];
