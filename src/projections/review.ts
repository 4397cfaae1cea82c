import type Database from 'better-sqlite3';
import type { FoldedBy, JournalEventOf } from '../journal/catalogue/catalogue.js';
import { classOfIdentity, type SignerClass } from '../domain/signer-class.js';
import { ReviewReads } from './review-reads.js';
import { defineView } from './define-view.js';

/**
 * The review views: per row, the facts review reads (when it started waiting, the reopen
 * epoch, a cancel, veto findings, failed runs, the day's sign ask); every signature
 * (verdicts, people's signs, decisions) with the epoch it belongs to; each assessment's
 * score and words; each reviewer run; and the tokens spent per UTC day.
 */
export function reviewTables(schema: string): string {
  return `
    -- Keyed by the artifacts view's rowid, not the artifact id: rows are scanned in about the
    -- order they were ingested, so a new entry lands on the table's last page beside the
    -- others of its commit (keyed by the random id, each scan dirtied a page of its own).
    CREATE TABLE IF NOT EXISTS ${schema}.review_rows (
      row INTEGER PRIMARY KEY,
      artifact_id TEXT NOT NULL,
      review_since INTEGER NOT NULL,
      epoch INTEGER NOT NULL DEFAULT 0,
      cancelled INTEGER NOT NULL DEFAULT 0,
      veto INTEGER NOT NULL DEFAULT 0,
      asked_day TEXT
    );
    CREATE TABLE IF NOT EXISTS ${schema}.signatures (
      seq INTEGER PRIMARY KEY,
      artifact_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      type TEXT NOT NULL,
      signer TEXT NOT NULL,
      class TEXT NOT NULL,
      decision TEXT NOT NULL,
      stance TEXT,
      content_hash TEXT,
      rubric TEXT,
      assessment_id TEXT,
      category TEXT,
      epoch INTEGER NOT NULL,
      ts INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${schema}.signatures_row ON signatures(artifact_id, seq);
    CREATE INDEX IF NOT EXISTS ${schema}.signatures_signer ON signatures(signer, ts);
    CREATE INDEX IF NOT EXISTS ${schema}.signatures_verdict ON signatures(content_hash, signer, stance) WHERE type = 'verdict';
    CREATE TABLE IF NOT EXISTS ${schema}.assessments (
      event_id TEXT PRIMARY KEY,
      artifact_id TEXT NOT NULL,
      run_id TEXT,
      score INTEGER NOT NULL,
      rubric TEXT NOT NULL,
      rationale TEXT NOT NULL,
      evidence TEXT NOT NULL,
      counterevidence TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${schema}.review_runs (
      run_id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL,
      artifact_id TEXT,
      space TEXT,
      backend TEXT NOT NULL,
      model_label TEXT NOT NULL,
      stance TEXT,
      state TEXT NOT NULL,
      failure TEXT,
      detail TEXT,
      cost_tokens INTEGER NOT NULL,
      from_record INTEGER NOT NULL,
      ms INTEGER NOT NULL,
      ts INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS ${schema}.review_runs_seq ON review_runs(seq);
    CREATE INDEX IF NOT EXISTS ${schema}.review_runs_state ON review_runs(state, seq);
    CREATE INDEX IF NOT EXISTS ${schema}.review_runs_row ON review_runs(artifact_id, seq);
    CREATE TABLE IF NOT EXISTS ${schema}.review_budget (day TEXT PRIMARY KEY, spent INTEGER NOT NULL) WITHOUT ROWID;
  `;
}

export const reviewDigestQueries = (schema: string) => ({
  review_rows: `SELECT * FROM ${schema}.review_rows ORDER BY row`,
  signatures: `SELECT * FROM ${schema}.signatures ORDER BY seq`,
  assessments: `SELECT * FROM ${schema}.assessments ORDER BY event_id`,
  review_runs: `SELECT * FROM ${schema}.review_runs ORDER BY run_id`,
  review_budget: `SELECT * FROM ${schema}.review_budget ORDER BY day`,
});

/** The review_rows key of the row an artifact id names (its rowid in the artifacts view). */
const rowOf = (schema: string) => `(SELECT rowid FROM ${schema}.artifacts WHERE artifact_id = ?)`;

type Data = Record<string, unknown>;
const str = (d: Data, k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);

/** The UTC day of a timestamp, as budgets and sign asks count days. */
export const utcDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/**
 * The decision each signature the view folds records when the event names none: every type
 * the catalogue has this view fold is a signature but the five its switch takes apart.
 */
const SIGNING = {
  verdict: 'approve',
  'manual-sign': 'approve',
  disposition: 'approve',
  promote: 'promote',
  ratify: 'promote',
  reject: 'reject',
  demote: 'demote',
  expire: 'expire',
  cancel: 'cancel',
  // A second authority's outcome, signed as the authority class.
  countersign: 'countersign',
  refuse: 'refuse',
} satisfies Record<Exclude<FoldedBy<'review'>, 'scan' | 'reopen' | 'sign-asked' | 'assessment' | 'review-run'>, string>;

export class ReviewReducer {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database, schema: string) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // A row scanned again (gv.scan) keeps its review clock and runs; a veto finding only ever joins.
      scanned: p(`INSERT INTO ${schema}.review_rows (row, artifact_id, review_since, veto)
        SELECT rowid, artifact_id, ?, ? FROM ${schema}.artifacts WHERE artifact_id = ?
        ON CONFLICT(row) DO UPDATE SET veto = max(veto, excluded.veto)`),
      reopened: p(`UPDATE ${schema}.review_rows SET review_since = ?, epoch = epoch + 1 WHERE row = ${rowOf(schema)}`),
      // A promoted row a later scan took from its readers waits again from that scan (its signatures stand).
      heldAgain: p(`UPDATE ${schema}.review_rows SET review_since = ? WHERE row = ${rowOf(schema)}`),
      cancelled: p(`UPDATE ${schema}.review_rows SET cancelled = 1 WHERE row = ${rowOf(schema)}`),
      asked: p(`UPDATE ${schema}.review_rows SET asked_day = ? WHERE row = ${rowOf(schema)}`),
      epoch: p(`SELECT epoch FROM ${schema}.review_rows WHERE row = ${rowOf(schema)}`).pluck(),
      sign: p(`INSERT INTO ${schema}.signatures (seq, artifact_id, event_id, type, signer, class, decision, stance, content_hash,
        rubric, assessment_id, category, epoch, ts) VALUES (@seq, @artifact_id, @event_id, @type, @signer, @class, @decision,
        @stance, @content_hash, @rubric, @assessment_id, @category, @epoch, @ts)`),
      assessment: p(`INSERT INTO ${schema}.assessments (event_id, artifact_id, run_id, score, rubric, rationale, evidence,
        counterevidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      run: p(`INSERT INTO ${schema}.review_runs (run_id, seq, artifact_id, space, backend, model_label, stance, state, failure,
        detail, cost_tokens, from_record, ms, ts) VALUES (@run_id, @seq, @artifact_id, @space, @backend, @model_label, @stance,
        @state, @failure, @detail, @cost_tokens, @from_record, @ms, @ts)`),
      spend: p(`INSERT INTO ${schema}.review_budget (day, spent) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET spent = spent + excluded.spent`),
    };
  }

  apply(event: JournalEventOf<FoldedBy<'review'>>): void {
    const d = event.data;
    const id = str(d, 'artifact_id');
    switch (event.type) {
      case 'scan': {
        const findings = Array.isArray(event.data.findings) ? event.data.findings : [];
        this.s.scanned!.run(event.ts, findings.some((f) => f.severity === 'veto') ? 1 : 0, id);
        if (str(d, 'leaves') === 'ACTIVE' && str(d, 'enters') === 'L1B_FLAGGED') this.s.heldAgain!.run(event.ts, id);
        return;
      }
      case 'reopen':
        this.s.reopened!.run(event.ts, id);
        return;
      case 'sign-asked':
        this.s.asked!.run(utcDay(event.ts), id);
        return;
      case 'assessment':
        this.s.assessment!.run(event.event_id, id, str(d, 'run_id'), event.data.score, event.data.rubric, event.data.rationale,
          JSON.stringify(event.data.evidence ?? []), JSON.stringify(event.data.counterevidence ?? []));
        // An assessment is also the record of the completed run that made it.
        return this.run(event);
      case 'review-run':
        return this.run(event);
    }
    if (event.type === 'cancel') this.s.cancelled!.run(id);
    const cls = (str(d, 'signer_class') as SignerClass | null) ?? classOfIdentity(event.by);
    this.s.sign!.run({
      seq: event.seq,
      artifact_id: id,
      event_id: event.event_id,
      type: event.type,
      // A verdict is signed by its model; every other signature by the identity that acted.
      signer: event.type === 'verdict' ? str(d, 'model_label') : (event.by ?? 'deployment'),
      class: event.type === 'verdict' ? 'model' : cls,
      decision: str(d, 'decision') ?? SIGNING[event.type],
      stance: str(d, 'stance'),
      content_hash: str(d, 'content_hash'),
      rubric: str(d, 'rubric'),
      assessment_id: str(d, 'assessment'),
      category: str(d, 'category'),
      epoch: (this.s.epoch!.get(id) as number | undefined) ?? 0,
      ts: event.ts,
    });
  }

  private run(event: JournalEventOf<'assessment' | 'review-run'>): void {
    const d = event.data;
    const cost = typeof event.data.cost_tokens === 'number' ? event.data.cost_tokens : 0;
    this.s.run!.run({
      run_id: event.data.run_id,
      seq: event.seq,
      artifact_id: str(d, 'artifact_id'),
      space: str(d, 'space'),
      backend: event.data.backend,
      model_label: event.data.model_label,
      stance: str(d, 'stance'),
      state: event.data.state,
      failure: str(d, 'failure'),
      detail: str(d, 'detail'),
      cost_tokens: cost,
      from_record: event.data.from_record === true ? 1 : 0,
      ms: typeof event.data.ms === 'number' ? event.data.ms : 0,
      ts: event.ts,
    });
    if (cost > 0) this.s.spend!.run(utcDay(event.ts), cost);
  }
}

/** The review view: rows under review, signatures, assessments, runs and budgets. */
export const reviewView = defineView({
  name: 'review',
  tables: reviewTables,
  digest: reviewDigestQueries,
  reducer: (db, schema) => new ReviewReducer(db, schema),
  reads: {
    reviews: ({ db }) => new ReviewReads(db),
  },
});
