#!/usr/bin/env node
// The labelled set (fixtures/recall-quality) through a served gate: what gv.recall itself
// answers in each mode, its whole lexical plan, vector index and fusion included. The
// offline bench/recall-quality.js compares embeddings on a plan of its own; this one tells
// whether a change to the gate's recall changed what a caller is served.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PROMOTES_ENV, BENCH_DIR, readAndPromote, HttpClient, REPO_ROOT, SocketClient, machine, parseOptions, printTable, round, startGate, tempDir } from './lib.js';

const USAGE = `
node bench/recall-quality-gate.js [options]

Starts a gate, ingests the 300 claims of fixtures/recall-quality/claims.json with an agent
key, promotes them, waits until every one is embedded, then asks gv.recall (k 10, scope
space) each of the 140 paraphrased queries of queries.json in mode lexical, vector and
hybrid. Reports recall@10 (share of a query's relevant claims among the 10 hits, averaged)
and MRR@10 (1 / rank of the first relevant hit, 0 past 10, averaged), and the mean latency.
Then the weak mark: where the cosines of hybrid hits no query word matched lie, for the
relevant hits of queries.json and for every hit of unanswerable.json (made-up words, and
topics no claim is about), and how many of each the gate marks weak.
With --settings '{"recall.fusion": "trust", ...}', the gate's [recall] settings are saved
(gv.settings_save, live keys) before the queries, so a ranking rule can be measured here too;
they are recorded in the results. Writes bench/results/recall-quality-gate.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'recall-quality-gate.json'), help: 'results file ("" to write none)' },
    settings: { type: 'string', default: '', help: 'a JSON object of [recall] settings to save before the queries, e.g. {"recall.lexical_weight": 0.8}' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);
const FIXTURES = join(REPO_ROOT, 'fixtures', 'recall-quality');
const claims = JSON.parse(readFileSync(join(FIXTURES, 'claims.json'), 'utf8'));
const queries = JSON.parse(readFileSync(join(FIXTURES, 'queries.json'), 'utf8'));
const unanswerable = JSON.parse(readFileSync(join(FIXTURES, 'unanswerable.json'), 'utf8'));
const MODES = ['lexical', 'vector', 'hybrid'];

const quantiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => (sorted.length === 0 ? null : round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))], 3));
  return { n: sorted.length, min: at(0), p05: at(0.05), p50: at(0.5), p95: at(0.95), max: sorted.length === 0 ? null : round(sorted.at(-1), 3) };
};

/**
 * The weak mark against the labelled set: the cosine of each hybrid hit no query word
 * matched, split into relevant hits (of answerable queries) and the hits of queries nothing
 * answers; and the share of each the gate marked weak, and of answerable queries whose
 * first relevant hit was marked weak.
 */
async function weakMeasure(rpc, claimOf) {
  const relevantUnmatched = [];
  let relevantHits = 0;
  let relevantWeak = 0;
  let firstRelevantWeak = 0;
  let answered = 0;
  for (const q of queries) {
    const hits = (await rpc('gv.recall', { query: q.text, k: 10, mode: 'hybrid' })).hits;
    const relevant = new Set(q.relevant);
    let first = true;
    for (const h of hits) {
      if (!relevant.has(claimOf.get(h.artifact_id))) continue;
      relevantHits += 1;
      if (h.weak) relevantWeak += 1;
      if (first) {
        answered += 1;
        if (h.weak) firstRelevantWeak += 1;
        first = false;
      }
      if (h.signals.lexical === undefined) relevantUnmatched.push(h.signals.vector?.score ?? 0);
    }
  }
  const groups = {};
  for (const [name, texts] of [['nonsense', unanswerable.nonsense], ['off_topic', unanswerable.off_topic]]) {
    const unmatched = [];
    let hitsSeen = 0;
    let weak = 0;
    let allWeak = 0;
    for (const text of texts) {
      const hits = (await rpc('gv.recall', { query: text, k: 10, mode: 'hybrid' })).hits;
      hitsSeen += hits.length;
      weak += hits.filter((h) => h.weak).length;
      if (hits.every((h) => h.weak)) allWeak += 1;
      for (const h of hits) if (h.signals.lexical === undefined) unmatched.push(h.signals.vector?.score ?? 0);
    }
    groups[name] = { queries: texts.length, hits: hitsSeen, weak_share: round(weak / hitsSeen, 3), queries_all_weak: allWeak, unmatched_cosine: quantiles(unmatched) };
  }
  return {
    relevant: {
      hits: relevantHits,
      weak: relevantWeak,
      unmatched_cosine: quantiles(relevantUnmatched),
      queries_answered: answered,
      first_relevant_weak: firstRelevantWeak,
    },
    ...groups,
  };
}

async function main() {
  const gate = await startGate({ home: join(tempDir('gate-bench-quality'), 'home'), removeHome: true, env: ADMIN_PROMOTES_ENV });
  const admin = await SocketClient.open(gate.socketPath);
  const client = new HttpClient(gate.url, { maxSockets: 1 });
  try {
    const key = (await admin.call('gv.keys', { action: 'issue', role: 'agent', label: 'quality' })).key;
    const rpc = async (method, params) => {
      const { body } = await client.send(key, method, params);
      if (body?.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    };
    const claimOf = new Map();
    // A claim the scanner holds (L1B) waits for a person and is never served: it stays out of
    // recall, as it would at any gate, and is named in the results rather than stopping the bench.
    const heldByScanner = [];
    for (const c of claims) {
      const { artifact_id, state } = await rpc('gv.ingest', { content: c.text, kind: 'memory', source_uri: `fixture://${c.id}`, workarea: 'quality' });
      claimOf.set(artifact_id, c.id);
      if (state === 'L1B_FLAGGED') heldByScanner.push(c.id);
      else await readAndPromote(admin, artifact_id);
    }
    log(`${claims.length - heldByScanner.length} claims ingested and promoted${heldByScanner.length > 0 ? `; held by the scanner, so never served: ${heldByScanner.join(', ')}` : ''}; waiting for their vectors`);
    const deadline = Date.now() + 120_000;
    const lastServed = claims.filter((c) => !heldByScanner.includes(c.id)).at(-1);
    for (;;) {
      const hits = (await rpc('gv.recall', { query: lastServed.text, k: 1, mode: 'vector' })).hits;
      if (claimOf.get(hits[0]?.artifact_id) === lastServed.id) break;
      if (Date.now() > deadline) throw new Error('the claims were not embedded within 120 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const settings = opts.settings === '' ? null : JSON.parse(opts.settings);
    if (settings !== null) {
      const saved = await admin.call('gv.settings_save', { changes: settings });
      if (saved.restart_required.length > 0) throw new Error(`--settings: these wait for a restart: ${saved.restart_required.join(', ')}`);
      log(`settings saved: ${JSON.stringify(settings)}`);
    }
    const results = {};
    for (const mode of MODES) {
      let recall = 0;
      let mrr = 0;
      const t0 = performance.now();
      for (const q of queries) {
        const listed = (await rpc('gv.recall', { query: q.text, k: 10, mode })).hits.map((h) => claimOf.get(h.artifact_id));
        const relevant = new Set(q.relevant);
        recall += listed.filter((id) => relevant.has(id)).length / relevant.size;
        const first = listed.findIndex((id) => relevant.has(id));
        mrr += first >= 0 ? 1 / (first + 1) : 0;
      }
      results[mode] = {
        recall_at_10: round(recall / queries.length, 3),
        mrr_at_10: round(mrr / queries.length, 3),
        ms_per_query: round((performance.now() - t0) / queries.length, 2),
      };
    }
    printTable(
      [['mode', 'recall@10', 'MRR@10', 'ms/query'], ...MODES.map((m) => [m, results[m].recall_at_10.toFixed(3), results[m].mrr_at_10.toFixed(3), String(results[m].ms_per_query)])],
      `The labelled set through gv.recall (${claims.length} claims, ${queries.length} paraphrased queries, k 10)`,
    );
    const weak = await weakMeasure(rpc, claimOf);
    log(`weak mark, hybrid k 10: ${JSON.stringify(weak, null, 1)}`);
    if (opts.out) {
      writeFileSync(opts.out, `${JSON.stringify({ ...results, ...(settings === null ? {} : { settings }), weak, claims: claims.length, held_by_scanner: heldByScanner, queries: queries.length, machine: machine(), measured_at: new Date().toISOString() }, null, 2)}\n`);
      log(`wrote ${opts.out}`);
    }
  } finally {
    client.close();
    admin.close();
    await gate.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
