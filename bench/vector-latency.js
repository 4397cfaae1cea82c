// Vector and hybrid recall latency for bench/recall.js: the gate's VectorRecall and
// reciprocal rank fusion measured in-process on the cached corpus's home, beside floors
// measured on the same vectors in the same run, and through the socket when gv.recall
// serves mode vector and hybrid.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { percentiles, round } from './lib.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function summary(xs) {
  const p = percentiles(xs, [50, 90, 99]);
  return { p50_ms: round(p[50], 3), p90_ms: round(p[90], 3), p99_ms: round(p[99], 3), queries: xs.length };
}

const load = (root, file) => import(pathToFileURL(join(root, file)).href);

/**
 * Opens the home in this process (the served gate must have stopped), waits for the embed
 * stage's catch-up, then times per query: lexical (gate.lexical), vector
 * (gate.vector.promoted) and hybrid (gate.rankedSearch, as gv.recall runs it: both lists at
 * least 50 deep, the vector scan in its worker beside the lexical ranking, fused, top k).
 */
export async function measureVectorInProcess({ root, home, queries, warm, k, log, exactQueries }) {
  const { Gate } = await load(root, 'dist/src/gate.js');
  const { resolveHome } = await load(root, 'dist/src/config/home.js');
  const { loadConfig } = await load(root, 'dist/src/config/load-config.js');
  // The quantizer moved beside the embed worker with the redesign (issue 34); an older build keeps it in recall.
  const { toInt8, ternaryCode } = await load(root, existsSync(join(root, 'dist/workers/embed/quantize.js')) ? 'dist/workers/embed/quantize.js' : 'dist/src/recall/quantize.js');
  const { BinaryPartition } = await load(root, 'dist/src/recall/binary-partition.js');
  const { BRUTE_FORCE_MAX } = await load(root, 'dist/src/recall/partition-codes.js');
  const paths = resolveHome(home);
  const { config } = loadConfig(paths.config, {});
  const gateLog = {
    debug: () => undefined,
    info: (m) => /vector/.test(m) && log(`  gate: ${m}`),
    warn: (m) => log(`  gate warning: ${m}`),
    error: (m, e) => log(`  gate error: ${m}${e ? `: ${e.message ?? e}` : ''}`),
  };
  const t0 = performance.now();
  const opened = Gate.open(paths, config, { log: gateLog });
  const openMs = performance.now() - t0;
  // The gate's recall and embed stage: its parts since the redesign (issue 34), its own fields before, so a build before can be measured.
  const gate = opened.recall
    ? { vector: opened.recall.vector, lexical: opened.recall.lexical, rankedSearch: opened.recall.rankedSearch, embed: opened.pipeline.embed, db: opened.db, close: () => opened.close() }
    : opened;
  let lastLog = performance.now();
  while (gate.vector.ready.pending > 0) {
    await sleep(500);
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      log(`  waiting for the vector catch-up: ${gate.vector.ready.pending} rows left`);
    }
  }
  const catchUpMs = performance.now() - t0 - openMs;
  const ready = gate.vector.ready;
  log(`  in-process gate open in ${Math.round(openMs)} ms, catch-up ${Math.round(catchUpMs / 1000)} s; ${ready.indexed} vectors (${ready.model})`);

  const vq = (text, limit) => ({ text, spaces: ['main'], limit, includeProvisional: true, includeSuperseded: false });
  const lq = (text, limit) => ({ query: text, spaces: ['main'], k: limit, includeProvisional: true, includeSuperseded: false });
  const hybrid = (text) =>
    gate.rankedSearch.promoted({ mode: 'hybrid', text, spaces: ['main'], workarea: null, limit: k, includeProvisional: true, includeSuperseded: false });
  for (const q of warm) {
    await gate.vector.promoted(vq(q.text, k));
    await hybrid(q.text);
  }
  const lexMs = [];
  const vecMs = [];
  const hybMs = [];
  const vectorTop = [];
  const vectorScores = [];
  let vecShort = 0;
  for (const q of queries) {
    let t = performance.now();
    gate.lexical.promoted(lq(q.text, k));
    lexMs.push(performance.now() - t);
    t = performance.now();
    const v = await gate.vector.promoted(vq(q.text, k));
    vecMs.push(performance.now() - t);
    if (v.length < k) vecShort++;
    vectorTop.push(v.map((r) => r.rowid));
    vectorScores.push(v.reduce((sum, r) => sum + r.score, 0));
    t = performance.now();
    await hybrid(q.text);
    hybMs.push(performance.now() - t);
  }

  // Floors on the same stored vectors: sqlite-vec's exact KNN (which also gives the true
  // top k, to measure what the binary prefilter loses), the Hamming kernel alone over the
  // same codes, and sqlite-vec's own bit[] KNN over them.
  const exact = gate.db.prepare(`SELECT rowid, distance FROM main.vector_index WHERE e MATCH vec_int8(?) AND k = ? AND part = 's:main'`);
  const exactMs = [];
  let agree = 0;
  let possible = 0;
  let foundScore = 0;
  let exactScore = 0;
  const qVectors = [];
  for (const q of queries.slice(0, exactQueries)) qVectors.push(toInt8(await gate.embed.embedQuery(q.text)));
  for (let i = 0; i < qVectors.length; i++) {
    const t = performance.now();
    const rows = exact.all(Buffer.from(qVectors[i].buffer), k);
    exactMs.push(performance.now() - t);
    const truth = new Set(rows.map((r) => r.rowid));
    possible += truth.size;
    agree += vectorTop[i].filter((id) => truth.has(id)).length;
    foundScore += vectorScores[i];
    exactScore += rows.reduce((sum, r) => sum + 1 - r.distance, 0);
  }
  const dims = gate.embed.dims;
  const binary = new BinaryPartition(Math.ceil(dims / 64));
  const codes = gate.db.prepare(`SELECT rowid, flags, code FROM main.vector_codes WHERE part = 's:main'`);
  for (const r of codes.iterate()) binary.put(r.rowid, new Uint8Array(r.code.buffer, r.code.byteOffset, r.code.byteLength), r.flags);
  const scanMs = [];
  for (const q8 of qVectors.length > 0 ? qVectors : []) {
    const code = ternaryCode(q8, dims);
    const t = performance.now();
    binary.nearest(code, 2, 200);
    scanMs.push(performance.now() - t);
  }
  for (const q of queries.slice(qVectors.length, 200)) {
    const code = ternaryCode(toInt8(await gate.embed.embedQuery(q.text)), dims);
    const t = performance.now();
    binary.nearest(code, 2, 200);
    scanMs.push(performance.now() - t);
  }
  const bitDb = new Database(':memory:');
  (await import('sqlite-vec')).load(bitDb);
  bitDb.exec(`CREATE VIRTUAL TABLE bits USING vec0(e bit[${Math.ceil(dims / 64) * 64}])`);
  const insertBit = bitDb.prepare('INSERT INTO bits (rowid, e) VALUES (?, vec_bit(?))');
  bitDb.transaction(() => {
    // The positive plane alone: sign bits, as a binary index in sqlite-vec would hold them.
    for (const r of codes.iterate()) insertBit.run(BigInt(r.rowid), r.code.subarray(0, r.code.length / 2));
  })();
  const bitKnn = bitDb.prepare('SELECT rowid FROM bits WHERE e MATCH vec_bit(?) AND k = ?');
  const bitMs = { 10: [], 200: [] };
  for (const q8 of qVectors.slice(0, 40)) {
    const code = Buffer.from(ternaryCode(q8, dims).subarray(0, Math.ceil(dims / 64) * 8));
    for (const kk of [10, 200]) {
      const t = performance.now();
      bitKnn.all(code, kk);
      bitMs[kk].push(performance.now() - t);
    }
  }
  bitDb.close();
  await gate.close();
  return {
    measured: 'in process on the cached home: gate.lexical.promoted, gate.vector.promoted, and hybrid = gate.rankedSearch.promoted mode hybrid (as gv.recall runs it), top k',
    model: ready.model,
    vectors: ready.indexed,
    brute_force_max: BRUTE_FORCE_MAX,
    lexical: summary(lexMs),
    vector: { ...summary(vecMs), queries_under_k_hits: vecShort },
    hybrid: summary(hybMs),
    vector_agreement_with_exact: {
      queries: qVectors.length,
      recall_at_k: possible === 0 ? null : round(agree / possible, 3),
      // Near ties make rowids a harsh measure on this text: the cosine found against the cosine there was to find.
      score_ratio: exactScore === 0 ? null : round(foundScore / exactScore, 4),
    },
    floor: {
      sqlite_vec_exact_int8_knn: summary(exactMs),
      kernel_scan_200: summary(scanMs),
      sqlite_vec_bit_knn_k10: summary(bitMs[10]),
      sqlite_vec_bit_knn_k200: summary(bitMs[200]),
    },
    open_ms: Math.round(openMs),
    catch_up_s: round(catchUpMs / 1000, 1),
  };
}

/** Whether the served gate answers gv.recall in `mode` with vector signals (the verb wiring lands separately). */
export async function servesMode(client, mode, queries) {
  for (const q of queries.slice(0, 20)) {
    const msg = await client.send('gv.recall', { query: q.text, mode, k: 10 });
    if (msg.error) return false;
    if (msg.result.hits.some((h) => h.signals?.vector)) return true;
  }
  return false;
}

/** gv.recall over the socket in `mode`, one query in flight. */
export async function measureSocketMode(client, mode, queries, warm, k) {
  for (const q of warm) await client.call('gv.recall', { query: q.text, k, mode });
  const xs = [];
  for (const q of queries) {
    const t = performance.now();
    const msg = await client.send('gv.recall', { query: q.text, k, mode });
    xs.push(performance.now() - t);
    if (msg.error) throw new Error(`gv.recall mode ${mode}: ${JSON.stringify(msg.error)}`);
  }
  return summary(xs);
}

/** Waits until the served gate's embed stage reports its start-up catch-up done (it logs both ends on stderr). */
export async function waitForCatchUp(gate, log, maxSeconds = 3600) {
  const t0 = performance.now();
  let lastLog = t0;
  for (;;) {
    const tail = gate.stderrTail();
    const start = /(\d+) rows to embed/.exec(tail);
    if (start?.[1] === '0' || /vector catch-up done/.test(tail)) return round((performance.now() - t0) / 1000, 1);
    // The gate's start check says at info only when it found rows to embed (and says so before
    // it listens); a start with nothing to do says it at debug, which the bench's gate omits.
    if (start === null && performance.now() - t0 > 3_000) return round((performance.now() - t0) / 1000, 1);
    if ((performance.now() - t0) / 1000 > maxSeconds) throw new Error('the vector catch-up did not finish in time');
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      const progress = [...tail.matchAll(/vector catch-up: (\d+) of (\d+)/g)].pop();
      log(`  waiting for the gate's vector catch-up${progress ? ` (${progress[1]} of ${progress[2]})` : ''}`);
    }
    await sleep(500);
  }
}
