import type Database from 'better-sqlite3';

export const RELATION_KINDS = ['supersedes', 'restates', 'corrects', 'contradicts', 'extends'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

export interface RelationRow {
  child: string;
  parent: string;
  kind: RelationKind;
  space: string;
  by: string | null;
  seq: number;
  ts: number;
  event_id: string;
  group_id: string | null;
}

export interface HideRow {
  artifact_id: string;
  audience: string;
  by: string | null;
  lowered: number;
  seq: number;
  ts: number;
  event_id: string;
}

export interface PinRow {
  artifact_id: string;
  by: string | null;
  seq: number;
  ts: number;
  event_id: string;
}

/** A supersession chain as gv.tip serves it: root first, the natural head last. */
export interface Chain {
  members: string[];
  root: string;
  head: string;
}

/** A chain longer than this is a bug in the graph, not a real history; the walk stops there. */
const CHAIN_BOUND = 10_000;

/** Prepared reads of the relation graph, the tip pins and the hides. */
export class RelationReads {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      edges: p('SELECT * FROM relations WHERE child = ? OR parent = ? ORDER BY seq'),
      one: p('SELECT * FROM relations WHERE child = ? AND parent = ? AND kind = ?'),
      parents: p(`SELECT parent FROM relations WHERE child = ? AND kind = 'supersedes' ORDER BY seq`),
      children: p(`SELECT child FROM relations WHERE parent = ? AND kind = 'supersedes' ORDER BY seq DESC`),
      pin: p('SELECT * FROM tip_pins WHERE artifact_id = ?'),
      pinCount: p('SELECT count(*) AS n FROM tip_pins'),
      hides: p('SELECT * FROM hides WHERE artifact_id = ? ORDER BY audience'),
      hideCount: p('SELECT count(*) AS n FROM hides'),
      derived: p('SELECT child FROM derivations WHERE parent = ? ORDER BY child'),
      promotedAnswers: p(
        `SELECT count(*) FROM derivations d JOIN artifacts a ON a.artifact_id = d.child
       WHERE d.parent = ? AND a.kind = 'answer' AND a.state IN ('ACTIVE', 'SUPERSEDED')`,
      ).pluck(),
      ofChildren: p(`SELECT * FROM relations WHERE child IN (SELECT value FROM json_each(?)) ORDER BY seq, child, parent, kind`),
      pins: p('SELECT * FROM tip_pins ORDER BY seq'),
      hidesAmong: p(`SELECT artifact_id, audience FROM hides WHERE artifact_id IN (SELECT value FROM json_each(?)) ORDER BY artifact_id, audience`),
      ends: p(
        `SELECT parent AS other FROM relations WHERE child IN (SELECT value FROM json_each(?))
       UNION SELECT child AS other FROM relations WHERE parent IN (SELECT value FROM json_each(?))`,
      ),
      connected: p(
        `SELECT child AS id FROM relations WHERE child IN (SELECT value FROM json_each(?))
         UNION SELECT parent FROM relations WHERE parent IN (SELECT value FROM json_each(?))
         UNION SELECT parent FROM derivations WHERE parent IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  edgesOf(id: string): RelationRow[] {
    return this.s.edges!.all(id, id) as RelationRow[];
  }

  relation(child: string, parent: string, kind: string): RelationRow | undefined {
    return this.s.one!.get(child, parent, kind) as RelationRow | undefined;
  }

  /** Rows this one supersedes, oldest relation first. */
  supersededParents(id: string): string[] {
    return (this.s.parents!.all(id) as { parent: string }[]).map((r) => r.parent);
  }

  /** Rows that supersede this one, newest relation first. */
  supersedingChildren(id: string): string[] {
    return (this.s.children!.all(id) as { child: string }[]).map((r) => r.child);
  }

  /** True when `ancestor` is reachable from `id` by following supersedes edges towards parents. */
  supersedesTransitively(id: string, ancestor: string): boolean {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length > 0 && seen.size < CHAIN_BOUND) {
      const next = stack.pop()!;
      if (next === ancestor) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...this.supersededParents(next));
    }
    return false;
  }

  /**
   * The chain through a row: up by its oldest supersedes parent to the root, down by its
   * newest superseding child to the head. A merge or a split makes the graph a DAG; the
   * chain is then the one path those choices pick (documented in the README).
   */
  chain(id: string): Chain {
    const up: string[] = [];
    const seen = new Set([id]);
    for (let at = id; up.length < CHAIN_BOUND; ) {
      const parent = this.supersededParents(at).find((p) => !seen.has(p));
      if (parent === undefined) break;
      up.push(parent);
      seen.add(parent);
      at = parent;
    }
    const down: string[] = [];
    for (let at = id; down.length < CHAIN_BOUND; ) {
      const child = this.supersedingChildren(at).find((c) => !seen.has(c));
      if (child === undefined) break;
      down.push(child);
      seen.add(child);
      at = child;
    }
    const members = [...up.reverse(), id, ...down];
    return { members, root: members[0]!, head: members[members.length - 1]! };
  }

  pin(id: string): PinRow | undefined {
    return this.s.pin!.get(id) as PinRow | undefined;
  }

  /** The pin standing anywhere in the chain, if any. */
  pinIn(chain: Chain): PinRow | undefined {
    for (const member of chain.members) {
      const pin = this.pin(member);
      if (pin) return pin;
    }
    return undefined;
  }

  anyPins(): boolean {
    return (this.s.pinCount!.get() as { n: number }).n > 0;
  }

  hidesOf(id: string): HideRow[] {
    return this.s.hides!.all(id) as HideRow[];
  }

  anyHides(): boolean {
    return (this.s.hideCount!.get() as { n: number }).n > 0;
  }

  /** Rows that name this one in their derives_from. */
  derivedFrom(id: string): string[] {
    return (this.s.derived!.all(id) as { child: string }[]).map((r) => r.child);
  }

  /** Promoted answers that derive from the row (a question's answers name it in derives_from). */
  promotedAnswersDerivedFrom(id: string): number {
    return this.s.promotedAnswers!.get(id) as number;
  }

  /** Relations whose child is one of these rows, in the order they were made. */
  relationsOfChildren(ids: readonly string[]): RelationRow[] {
    return this.s.ofChildren!.all(JSON.stringify(ids)) as RelationRow[];
  }

  /** Every tip pin, oldest first. */
  pins(): PinRow[] {
    return this.s.pins!.all() as PinRow[];
  }

  /** The audiences each of these rows is hidden for, by row then audience. */
  hidesAmong(ids: readonly string[]): { artifact_id: string; audience: string }[] {
    return this.s.hidesAmong!.all(JSON.stringify(ids)) as { artifact_id: string; audience: string }[];
  }

  /** The rows one relation away from any of these, either direction (the given rows may be among them). */
  relatedTo(ids: readonly string[]): string[] {
    const json = JSON.stringify(ids);
    return (this.s.ends!.all(json, json) as { other: string }[]).map((e) => e.other);
  }

  /** Of these rows, those a relation names either way or another row derives from. */
  connectedAmong(ids: readonly string[]): string[] {
    const json = JSON.stringify(ids);
    return (this.s.connected!.all(json, json, json) as { id: string }[]).map((r) => r.id);
  }
}
