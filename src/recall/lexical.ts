import type Database from 'better-sqlite3';
import type { ArtifactReads, ArtifactRow } from '../projections/artifact-reads.js';
import { queryTerms, recallExpression } from './fts-query.js';
import { areaToken } from '../projections/area-tokens.js';
import { TermFrequencies } from './term-frequencies.js';
import { nativeBuildPath } from '../native-build.js';
import { idfWeights } from './query-weights.js';
import type { WordWeights } from '../../workers/embed/hashed-ngrams.js';

export interface LexicalHit {
  row: ArtifactRow;
  /** bm25 negated, so larger is better. */
  score: number;
  rank: number;
}

export interface LexicalQuery {
  query: string;
  spaces: readonly string[];
  k: number;
  /**
   * The wider levels (fewer terms, then any term) run only while fewer than this many rows
   * are found (default k): a list read deeper than it is shown need not pay for them.
   */
  widenBelow?: number;
  includeProvisional: boolean;
  includeSuperseded: boolean;
  /** Only rows of this work area and the areas below it. */
  workarea?: string;
  /**
   * The document frequencies of queryTerms(query) in the index searched, when the caller has
   * read them already (a hybrid search weighs its query vector with them): read once a query.
   */
  frequencies?: readonly number[];
}

/** A query's terms and their document frequencies in one index: what its vector's weights and its lexical list both read. */
export interface TermStats {
  terms: string[];
  frequencies: number[];
  weights: WordWeights;
}

/**
 * bm25 ranks the newest RANK_WINDOW matching rows. A query of rare words matches fewer and
 * is ranked exactly; one of common words would otherwise score every match (hundreds of
 * thousands at a million rows), so its cost is bounded here, measured in bench/recall.js.
 */
export const RANK_WINDOW = 5_000;

/**
 * Lexical recall over FTS5 with bm25, scored by gate_bm25 (native/bm25-known-df.c): the
 * same formula, given each term's document frequency (TermFrequencies) instead of counting
 * it by walking the term's whole doclist on every query. The filters recall needs (space, provisional, the
 * writer of a held row) are UNINDEXED columns of the FTS tables themselves, so a query is
 * one FTS5 scan ordered by bm25 and never a join that could drive from the other side.
 * All terms must match first (the rarest posting list bounds the work); only when that
 * finds fewer than k rows does an any-term query fill the rest.
 */
export class LexicalRecall {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly holdsAny: Database.Statement;
  private readonly frequencies: Record<'recall_fts' | 'held_fts', TermFrequencies>;

  constructor(
    private readonly db: Database.Database,
    private readonly artifacts: ArtifactReads,
  ) {
    db.loadExtension(nativeBuildPath('bm25_known_df.node'));
    this.holdsAny = db.prepare(
      `SELECT 1 FROM artifacts WHERE writer_identity = ? AND state = 'L1_SCANNED' LIMIT 1`,
    );
    this.frequencies = { recall_fts: new TermFrequencies(db, 'recall_fts'), held_fts: new TermFrequencies(db, 'held_fts') };
  }

  promoted(q: LexicalQuery): LexicalHit[] {
    const extra = (q.includeProvisional ? '' : ' AND provisional = 0') + (q.includeSuperseded ? '' : ' AND superseded = 0');
    return this.search('recall_fts', q, extra, []);
  }

  /** The caller's own scanned, unflagged held rows (only L1 rows are indexed there, never L0 or L1B). */
  ownHeld(q: LexicalQuery, writer: string): LexicalHit[] {
    // Most callers hold nothing; the held index keeps deleted entries a while, so skip it then.
    if (this.holdsAny.get(writer) === undefined) return [];
    return this.search('held_fts', q, ' AND writer = ?', [writer]);
  }

  /** The query's words weighed by their rarity in the index searched (promoted rows, or held ones), for the query's vector (query-weights.ts), with the frequencies read for them. */
  termStats(query: string, table: 'recall_fts' | 'held_fts' = 'recall_fts'): TermStats {
    const terms = queryTerms(query);
    if (terms.length === 0) return { terms, frequencies: [], weights: new Map() };
    const counted = this.frequencies[table];
    const frequencies = counted.of(terms);
    return { terms, frequencies, weights: idfWeights(terms, frequencies, counted.rows()) };
  }

  /** `phrases`: the expression's phrases, each given its document frequency (the area's as -1: it weighs nothing). */
  private statement(table: string, phrases: number, spaces: number, extra: string): Database.Statement {
    const key = `${table}|${phrases}|${spaces}|${extra}`;
    let s = this.statements.get(key);
    if (!s) {
      s = this.db.prepare(
        `SELECT rowid, bm FROM (
           SELECT rowid, gate_bm25(${table}${', ?'.repeat(phrases)}) AS bm FROM ${table}
           WHERE ${table} MATCH ? AND space IN (${Array(spaces).fill('?').join(',')})${extra}
           ORDER BY rowid DESC LIMIT ${RANK_WINDOW})
         ORDER BY bm LIMIT ?`,
      );
      this.statements.set(key, s);
    }
    return s;
  }

  private search(table: 'recall_fts' | 'held_fts', q: LexicalQuery, extra: string, extraArgs: unknown[]): LexicalHit[] {
    const terms = queryTerms(q.query);
    if (terms.length === 0 || q.spaces.length === 0 || q.k <= 0) return [];
    const workarea = q.workarea;
    const areas = workarea === undefined ? [] : q.spaces.map((space) => areaToken(space, workarea));
    const frequencies = q.frequencies ?? this.frequencies[table].of(terms);
    const frequencyOf = new Map(terms.map((t, i) => [t, frequencies[i]!]));
    // Phrase i of the expression is term i (then the area), so the frequencies go in the same order.
    const run = (chosen: readonly string[], join: 'AND' | 'OR') =>
      this.statement(table, chosen.length + areas.length, q.spaces.length, extra).all(
        ...chosen.map((t) => frequencyOf.get(t)!),
        ...areas.map(() => -1),
        recallExpression(chosen, join, areas),
        ...q.spaces,
        ...extraArgs,
        q.k,
      ) as Array<{ rowid: number; bm: number }>;
    const found = run(terms, 'AND');
    const widenBelow = Math.min(q.widenBelow ?? q.k, q.k);
    const seen = new Set(found.map((r) => r.rowid));
    const fill = (level: Array<{ rowid: number; bm: number }>) => {
      level.sort((a, b) => a.bm - b.bm || b.rowid - a.rowid);
      for (const r of level) {
        if (found.length >= q.k) return;
        if (!seen.has(r.rowid)) {
          seen.add(r.rowid);
          found.push(r);
        }
      }
    };
    if (terms.length > 1 && terms.length <= COORDINATION_MAX_TERMS) {
      for (let size = terms.length - 1; size >= 2 && found.length < widenBelow; size--) {
        fill(subsetsOf(terms, size).flatMap((subset) => run(subset, 'AND')));
      }
    }
    if (found.length < widenBelow && terms.length > 1) fill(run(selectiveTerms(terms, frequencyOf), 'OR'));
    return found.map((r, i) => ({ row: this.artifacts.byRowid(r.rowid)!, score: -r.bm, rank: i + 1 }));
  }
}

/** Queries of at most this many terms are filled level by level (all terms, then every subset one smaller, ... then pairs). */
export const COORDINATION_MAX_TERMS = 4;

/** Every subset of `size` of the terms, in order. */
function subsetsOf(terms: readonly string[], size: number): string[][] {
  if (size === 0) return [[]];
  const out: string[][] = [];
  for (let i = 0; i <= terms.length - size; i++) {
    for (const rest of subsetsOf(terms.slice(i + 1), size - 1)) out.push([terms[i]!, ...rest]);
  }
  return out;
}

/**
 * The terms worth an any-term search: the rarest first, while their matches together fit
 * in RANK_WINDOW (the rarest always). An any-term search that kept a word in most rows
 * would be ranked among the newest rows holding any word at all, where the rare words'
 * older matches never get a turn; the words left out weigh least in bm25 anyway.
 */
export function selectiveTerms(terms: readonly string[], frequencyOf: ReadonlyMap<string, number>): string[] {
  const byRarity = [...terms].sort((a, b) => frequencyOf.get(a)! - frequencyOf.get(b)!);
  const chosen = [byRarity[0]!];
  let matches = frequencyOf.get(byRarity[0]!)!;
  for (const t of byRarity.slice(1)) {
    matches += frequencyOf.get(t)!;
    if (matches > RANK_WINDOW) break;
    chosen.push(t);
  }
  return chosen;
}
