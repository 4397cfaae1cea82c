import type Database from 'better-sqlite3';
import { DEFAULT_RECALL_TUNING } from '../config/recall-tuning.js';

/** The constants context spreads by: the defaults below, or a gate's [recall] settings (src/config/recall-tuning.ts). */
export interface ContextTuning {
  contextShare: number;
  answerShare: number;
  contextReach: number;
  contextFrom: number;
}

/**
 * A claim's context: the claims written next to it from the same source. A source is a
 * source_uri's part before its `#` fragment (`chat://team/standup-12#turn-7` is turn 7 of
 * `chat://team/standup-12`); a claim whose source_uri has no fragment is a whole source and
 * has no neighbours. An agent's question often names what one claim says and what the claim
 * beside it says ("what did she research?" against "researching adoption agencies" and the
 * reply before it), so a matched claim lends part of its score to its neighbours, and a
 * claim between two matches rises above one that matched alone. Done at query time over
 * the ranked list only: nothing is added to an ingest, and nothing of one claim's words is
 * indexed under another (an erased or demoted claim lends nothing, as it is not found).
 */

/**
 * The share of a matched claim's score each neighbour gets. Chosen by cross-validation on
 * LoCoMo's dev half (docs/recall.md, issue 48): 0.35 was the share best on four conversations
 * for 4 of the 5 held out in hybrid and all 5 in lexical, and choosing it raised the
 * cross-validated hybrid recall@10 over 0.45 (0.45 was chosen on the whole half before).
 */
export const CONTEXT_SHARE = DEFAULT_RECALL_TUNING.contextShare;
/**
 * The share the claim right after a question gets: all of the question's score. A claim that
 * asks something (its text holds a `?`) is most often answered by the next claim of its
 * source, which need not share a word with it ("How often do you all work out together?",
 * then "Three times a week"), so an answer is found as well as its question is. On LoCoMo's
 * dev half any share from 0.6 to 1 gave the same (hybrid recall@10 0.750-0.751, against 0.746
 * at 0.45 like every other neighbour); 1 is the share that says what the rule means.
 */
export const ANSWER_SHARE = DEFAULT_RECALL_TUNING.answerShare;
/** Neighbours each side, counted among the source's claims. */
export const CONTEXT_REACH = DEFAULT_RECALL_TUNING.contextReach;
/**
 * How far in rowids (ingest order) a neighbour is looked for each side: claims of one source
 * written among other writers' claims may lie a few rows apart. Bounds a query's work at this
 * many rows for each ranked row it spreads from, whatever the size of the store.
 */
export const NEIGHBOUR_WINDOW = 16;
/** Only the best this many rows of a list lend context: the rest are too far down to lift a neighbour into the answer. */
export const CONTEXT_FROM = DEFAULT_RECALL_TUNING.contextFrom;

const DEFAULT_CONTEXT: ContextTuning = { contextShare: CONTEXT_SHARE, answerShare: ANSWER_SHARE, contextReach: CONTEXT_REACH, contextFrom: CONTEXT_FROM };

export interface ContextCandidate {
  rowid: number;
  score: number;
}

/** Which rows the search serves, so context never brings in a row it would not answer. */
export interface ServedRows {
  includeSuperseded: boolean;
  includeProvisional: boolean;
}

/** A row with the context it received: `context` is the part of `score` its neighbours lent (absent when none did). */
export interface WithContext {
  rowid: number;
  score: number;
  context?: number;
}

/**
 * Reads the neighbours of ranked rows and spreads the context share (CONTEXT_SHARE by default)
 * of each lending row's score to the rows the reach (CONTEXT_REACH) either side of it in its
 * source (the answer share, ANSWER_SHARE, to the row right after a row that asks a question). A neighbour must be of
 * the same space, work area and source, and a row the search serves (ACTIVE, or SUPERSEDED
 * when asked; provisional unless refused; never steering or erased).
 */
export class NeighbourContext {
  private readonly nearby: Database.Statement;
  private readonly asks: Database.Statement;
  private readonly inSources: Database.Statement;

  constructor(
    db: Database.Database,
    /** Read at each spread: the gate's [recall] settings apply at once when saved (live keys). */
    private readonly tuning: () => ContextTuning = () => DEFAULT_CONTEXT,
  ) {
    // Which lenders have neighbours at all (a source_uri with a fragment), read in one statement:
    // a store whose claims name whole sources then pays one read a query, not one a lender.
    this.inSources = db
      .prepare(`SELECT rowid FROM main.artifacts WHERE rowid IN (SELECT value FROM json_each(?)) AND instr(source_uri, '#') > 1`)
      .pluck();
    // One statement a lending row: the row's own place, then its window read by rowid alone (NOT
    // INDEXED: an index on space would read every row of the space), filtered in SQL so rows of
    // other sources never become objects here.
    this.nearby = db
      .prepare(
        `WITH lender AS (
           -- The source and its '#': empty (no neighbours) when the source_uri has no fragment or starts with '#'.
           SELECT space, workarea, substr(source_uri, 1, instr(source_uri, '#')) AS prefix FROM main.artifacts WHERE rowid = @rowid)
         SELECT a.rowid FROM main.artifacts AS a NOT INDEXED, lender
         WHERE length(lender.prefix) > 1 AND a.rowid BETWEEN @rowid - ${NEIGHBOUR_WINDOW} AND @rowid + ${NEIGHBOUR_WINDOW}
           AND a.rowid != @rowid AND a.space = lender.space AND a.workarea IS lender.workarea
           AND substr(a.source_uri, 1, length(lender.prefix)) = lender.prefix
           AND (a.kind IS NULL OR a.kind != 'steering') AND a.erased_seq IS NULL
           AND (a.state = 'ACTIVE' OR (@superseded AND a.state = 'SUPERSEDED')) AND (@provisional OR a.provisional = 0)
         ORDER BY a.rowid`,
      )
      .pluck();
    // Whether a lending row asks a question: its indexed body (recall_fts's first column, c0 of
    // its content table, read by rowid as a b-tree lookup; through the FTS5 table it cost more) holds a '?'.
    this.asks = db.prepare(`SELECT instr(c0, '?') > 0 FROM main.recall_fts_content WHERE id = ?`).pluck();
  }

  /**
   * `ranked` best first; `lends` says whether a row's match is evidence enough to lend
   * (a weak vector neighbour lends nothing). Answers every ranked row and every neighbour
   * reached, best first (ties: the ranked order, then the lower rowid).
   */
  spread(ranked: readonly ContextCandidate[], lends: (rowid: number) => boolean, served: ServedRows): WithContext[] {
    const out = new Map<number, WithContext>();
    const order = new Map<number, number>();
    ranked.forEach((r, i) => {
      if (!out.has(r.rowid)) {
        out.set(r.rowid, { rowid: r.rowid, score: r.score });
        order.set(r.rowid, i);
      }
    });
    const tuning = this.tuning();
    const lenders = ranked.slice(0, tuning.contextFrom).filter((r) => r.score > 0 && lends(r.rowid));
    const sourced = lenders.length === 0 ? new Set<number>() : new Set(this.inSources.all(JSON.stringify(lenders.map((r) => r.rowid))) as number[]);
    for (const r of lenders) {
      if (!sourced.has(r.rowid)) continue;
      const { rows, answer } = this.neighbours(r.rowid, served, tuning.contextReach);
      for (const n of rows) {
        const lent = (n === answer ? tuning.answerShare : tuning.contextShare) * r.score;
        const got = out.get(n);
        if (got === undefined) out.set(n, { rowid: n, score: lent, context: lent });
        else {
          got.score += lent;
          got.context = (got.context ?? 0) + lent;
        }
      }
    }
    const rank = (w: WithContext) => order.get(w.rowid) ?? Infinity;
    return [...out.values()].sort((a, b) => b.score - a.score || rank(a) - rank(b) || a.rowid - b.rowid);
  }

  /**
   * The served rows of the row's source nearest it, up to CONTEXT_REACH each side within
   * NEIGHBOUR_WINDOW rowids, and the one right after it when the row asks a question (its answer).
   */
  private neighbours(rowid: number, served: ServedRows, reach: number): { rows: number[]; answer: number | null } {
    const rows = this.nearby.all({ rowid, superseded: served.includeSuperseded ? 1 : 0, provisional: served.includeProvisional ? 1 : 0 }) as number[];
    const after = rows.findIndex((n) => n > rowid);
    const before = after === -1 ? rows : rows.slice(0, after);
    return {
      rows: [...(reach === 0 ? [] : before.slice(-reach)), ...(after === -1 ? [] : rows.slice(after, after + reach))],
      answer: after !== -1 && this.asks.get(rowid) === 1 ? rows[after]! : null,
    };
  }
}
