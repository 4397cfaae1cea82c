import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalClaim {
  local_id: string;
  seq: number;
  space: string;
  workarea: string;
  content: string;
  content_type: string;
  source_uri: string;
  producer: string | null;
  derives_from: string | null;
  addressed_to: string | null;
  created_ts: number;
  /** The gate's id once a gate stamped it; null until then. */
  gate_id: string | null;
  gate_state: string | null;
  /** Set once the claim was handed to a gate, stamped or refused: never sent again. */
  forwarded_ts: number | null;
  refusal: string | null;
  /** The gate's JSON-RPC code for a refusal (-32009 for a ban), so the tool answers it as the gate did. */
  refusal_code: number | null;
}

export interface LocalRelation {
  space: string;
  workarea: string;
  kind: string;
  target: string;
  note: string | null;
  state: 'pending' | 'forwarded' | 'refused';
}

export interface LocalCompletion {
  space: string;
  workarea: string;
  note: string | null;
  state: 'pending' | 'forwarded' | 'refused';
}

/**
 * The plugin tier's own store (SQLite in its folder), so remember and recall work with no
 * gate running. A claim is kept with its mapping to the gate's id once forwarded; nothing
 * here is deleted, so the mapping survives restarts.
 */
export class LocalStore {
  readonly db: Database.Database;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.db = new Database(join(dir, 'plugin.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS claims (
        local_id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL UNIQUE,
        space TEXT NOT NULL,
        workarea TEXT NOT NULL,
        content TEXT NOT NULL,
        content_type TEXT NOT NULL,
        source_uri TEXT NOT NULL,
        producer TEXT,
        derives_from TEXT,
        addressed_to TEXT,
        created_ts INTEGER NOT NULL,
        gate_id TEXT,
        gate_state TEXT,
        forwarded_ts INTEGER,
        refusal TEXT,
        refusal_code INTEGER
      );
      CREATE INDEX IF NOT EXISTS claims_gate ON claims(gate_id);
      CREATE VIRTUAL TABLE IF NOT EXISTS claims_fts USING fts5(content, local_id UNINDEXED);
      CREATE TABLE IF NOT EXISTS relations (
        space TEXT NOT NULL, workarea TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
        note TEXT, state TEXT NOT NULL, PRIMARY KEY (space, workarea, kind, target)
      );
      CREATE TABLE IF NOT EXISTS completions (
        space TEXT NOT NULL, workarea TEXT NOT NULL, note TEXT, state TEXT NOT NULL, PRIMARY KEY (space, workarea)
      );
    `);
    // A store made before refusal codes were kept gains the column; its earlier refusals have none.
    const columns = this.db.prepare('PRAGMA table_info(claims)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'refusal_code')) this.db.exec('ALTER TABLE claims ADD COLUMN refusal_code INTEGER');
  }

  addClaim(c: Omit<LocalClaim, 'local_id' | 'seq' | 'gate_id' | 'gate_state' | 'forwarded_ts' | 'refusal' | 'refusal_code'>): LocalClaim {
    const localId = `local:${randomBytes(16).toString('hex')}`;
    this.db.transaction(() => {
      const seq = ((this.db.prepare('SELECT max(seq) AS m FROM claims').get() as { m: number | null }).m ?? 0) + 1;
      this.db
        .prepare(`INSERT INTO claims (local_id, seq, space, workarea, content, content_type, source_uri, producer, derives_from, addressed_to, created_ts)
          VALUES (@local_id, @seq, @space, @workarea, @content, @content_type, @source_uri, @producer, @derives_from, @addressed_to, @created_ts)`)
        .run({ ...c, local_id: localId, seq });
      this.db.prepare('INSERT INTO claims_fts (content, local_id) VALUES (?, ?)').run(c.content, localId);
    })();
    return this.claim(localId)!;
  }

  claim(localId: string): LocalClaim | undefined {
    return this.db.prepare('SELECT * FROM claims WHERE local_id = ?').get(localId) as LocalClaim | undefined;
  }

  claimByGateId(gateId: string): LocalClaim | undefined {
    return this.db.prepare('SELECT * FROM claims WHERE gate_id = ?').get(gateId) as LocalClaim | undefined;
  }

  unforwarded(): LocalClaim[] {
    return this.db.prepare('SELECT * FROM claims WHERE forwarded_ts IS NULL ORDER BY seq').all() as LocalClaim[];
  }

  /** The claim was handed to a gate: stamped with its id, or refused there. Either way it is never sent again. */
  markForwarded(localId: string, at: number, outcome: { gate_id: string; gate_state: string } | { refusal: string; code: number | null }): void {
    const refused = 'refusal' in outcome;
    this.db
      .prepare('UPDATE claims SET forwarded_ts = ?, gate_id = ?, gate_state = ?, refusal = ?, refusal_code = ? WHERE local_id = ? AND forwarded_ts IS NULL')
      .run(at, refused ? null : outcome.gate_id, refused ? 'REFUSED' : outcome.gate_state, refused ? outcome.refusal : null, refused ? outcome.code : null, localId);
  }

  claimsIn(space: string, workarea: string): LocalClaim[] {
    return this.db.prepare('SELECT * FROM claims WHERE space = ? AND workarea = ? ORDER BY seq DESC').all(space, workarea) as LocalClaim[];
  }

  /** Local claims matching the words of a query (any word), newest first. */
  search(query: string, limit: number, onlyUnforwarded: boolean): LocalClaim[] {
    const words = query.match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (words.length === 0) return [];
    const match = words.map((w) => `"${w}"`).join(' OR ');
    return this.db
      .prepare(`SELECT c.* FROM claims_fts f JOIN claims c ON c.local_id = f.local_id
        WHERE claims_fts MATCH ? ${onlyUnforwarded ? 'AND c.forwarded_ts IS NULL' : ''} AND c.refusal IS NULL
        ORDER BY bm25(claims_fts), c.seq DESC LIMIT ?`)
      .all(match, limit) as LocalClaim[];
  }

  areas(space: string): { workarea: string; n: number; last: number }[] {
    return this.db
      .prepare('SELECT workarea, count(*) AS n, max(created_ts) AS last FROM claims WHERE space = ? GROUP BY workarea ORDER BY workarea')
      .all(space) as { workarea: string; n: number; last: number }[];
  }

  addRelation(r: Omit<LocalRelation, 'state'>): boolean {
    return this.db.prepare(`INSERT OR IGNORE INTO relations (space, workarea, kind, target, note, state) VALUES (@space, @workarea, @kind, @target, @note, 'pending')`).run(r).changes > 0;
  }

  relations(space?: string): LocalRelation[] {
    return (space === undefined
      ? this.db.prepare('SELECT * FROM relations').all()
      : this.db.prepare('SELECT * FROM relations WHERE space = ?').all(space)) as LocalRelation[];
  }

  setRelationState(r: LocalRelation, state: LocalRelation['state']): void {
    this.db.prepare('UPDATE relations SET state = ? WHERE space = ? AND workarea = ? AND kind = ? AND target = ?').run(state, r.space, r.workarea, r.kind, r.target);
  }

  addCompletion(c: Omit<LocalCompletion, 'state'>): boolean {
    return this.db.prepare(`INSERT OR IGNORE INTO completions (space, workarea, note, state) VALUES (@space, @workarea, @note, 'pending')`).run(c).changes > 0;
  }

  completion(space: string, workarea: string): LocalCompletion | undefined {
    return this.db.prepare('SELECT * FROM completions WHERE space = ? AND workarea = ?').get(space, workarea) as LocalCompletion | undefined;
  }

  completions(): LocalCompletion[] {
    return this.db.prepare('SELECT * FROM completions').all() as LocalCompletion[];
  }

  setCompletionState(c: LocalCompletion, state: LocalCompletion['state']): void {
    this.db.prepare('UPDATE completions SET state = ? WHERE space = ? AND workarea = ?').run(state, c.space, c.workarea);
  }

  close(): void {
    this.db.close();
  }
}
