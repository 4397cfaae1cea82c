#!/usr/bin/env node
// The cost of reading a request's bytes strictly (UTF-8 refused when malformed, repeated keys
// and depth found) beside the floor, bare JSON.parse of the same bytes, measured in the same
// run. In process: no gate is started; the parse the doors run is imported from dist/.
import { isUtf8 } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, REPO_ROOT, corpus, fmtInt, machine, parseOptions, printTable, recordedOptions, round } from './lib.js';

const USAGE = `
node bench/request-parse.js [options]

Parses request bodies as the doors do (src/http-rpc/json-rpc-body.ts: strict UTF-8 decode,
JSON.parse, one loop for repeated keys and depth) and by the alternatives, each beside the
floor JSON.parse(buffer.toString('utf8')) measured in the same run. Many short rounds, the
alternatives in a new order each round; the figure is the best round (noise on a shared
machine only ever adds time), the median is kept beside it. Bodies:
  ingest_1kb        gv.ingest of ~1 KB English-like claims (the ingest benchmark's bodies)
  ingest_1kb_utf8   the same with multi-byte text (Greek, CJK, emoji)
  ingest_4mib       one gv.ingest whose content is ~4 MiB of prose with quotes and newlines
  map_4mib          ~4 MiB of small objects (every character outside strings is walked)
Alternatives:
  floor             JSON.parse(buf.toString('utf8'))          (replaces bad bytes, sees nothing)
  fatal_decode      JSON.parse(TextDecoder fatal .decode(buf))
  isutf8_tostring   isUtf8(buf), then JSON.parse(buf.toString())
  structure_scan    the repeated-key and depth loop alone, on decoded text
  door              jsonRpcObject(buf): what /rpc, /mcp and the socket run
  momoa             the client's strict reader (momoa syntax tree, then plain values)
Writes bench/results/request-parse.json.`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    rounds: { type: 'number', default: 25, help: 'rounds; the best and the median are reported' },
    'small-ms': { type: 'number', default: 40, help: 'time per alternative per round on the 1 KB bodies' },
    'large-iterations': { type: 'number', default: 2, help: 'parses per alternative per round on the 4 MiB bodies' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'request-parse.json'), help: 'result file' },
  },
  USAGE,
);

const dist = (p) => join(REPO_ROOT, 'dist', 'src', p);
const { jsonRpcObject } = await import(dist('http-rpc/json-rpc-body.js'));
const { MAX_REQUEST_DEPTH } = await import(dist('domain/request-depth.js'));
const { structureFault } = await import(dist('http-rpc/json-structure.js'));
const { parseStrictJson } = await import(join(REPO_ROOT, 'packages', 'client', 'dist', 'strict-json.js'));

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const request = (i, params) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'gv.ingest', params }));
const claim = (content, i) => ({ content, workarea: `bench/w${i % 8}`, kind: 'memory', source_uri: `bench://parse/${i}` });

function bodies() {
  const gen = corpus({ tag: 'parse' });
  const small = Array.from({ length: 512 }, (_, i) => request(i, claim(gen.claim(i), i)));
  const words = ['λόγος', 'γνώση', '知识', '记忆', 'größer', 'Ελλάδα', '🙂', 'naïve', 'ﬁx'];
  const utf8 = small.map((_, i) => request(i, claim(gen.claim(i).replace(/\b\w{5}\b/g, (w) => words[w.length % words.length] + w), i)));
  let prose = '';
  for (let i = 0; prose.length < 4 * 1024 * 1024 - 4096; i++) prose += `${gen.claim(i)} He said "${i}" then:\n\t${i % 7 === 0 ? 'C:\\path\\' : ''}`;
  const large = request(1, claim(prose, 1));
  const nodes = [];
  let size = 0;
  for (let i = 0; size < 4 * 1024 * 1024 - 4096; i++) {
    const node = { id: `n${i}`, path: `src/module${i % 97}/file${i}.ts`, kind: 'file', deps: [i - 1, i - 2], meta: { lines: i % 500, hot: i % 3 === 0 } };
    size += JSON.stringify(node).length + 1;
    nodes.push(node);
  }
  const map = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'gv.ingest_map', params: { map: { nodes } } }));
  return { ingest_1kb: small, ingest_1kb_utf8: utf8, ingest_4mib: [large], map_4mib: [map] };
}

const ALTERNATIVES = {
  floor: (b) => JSON.parse(b.toString('utf8')),
  fatal_decode: (b) => JSON.parse(fatal.decode(b)),
  isutf8_tostring: (b) => {
    if (!isUtf8(b)) throw new Error('not UTF-8');
    return JSON.parse(b.toString('utf8'));
  },
  // The decode is outside the timing here: this is the loop's own cost.
  structure_scan: (_b, text) => structureFault(text, MAX_REQUEST_DEPTH),
  door: (b) => {
    const parsed = jsonRpcObject(b);
    if (!('message' in parsed)) throw new Error(JSON.stringify(parsed.refusal));
    return parsed.message;
  },
  momoa: (b) => parseStrictJson(fatal.decode(b)),
};

/** Microseconds per parse: `fn` over the bodies in turn for at least `ms`, or exactly `iterations` times. */
function time(fn, list, texts, { ms, iterations }) {
  let n = 0;
  let sink = 0;
  const t0 = performance.now();
  for (;;) {
    const i = n % list.length;
    const out = fn(list[i], texts[i]);
    sink += out === null ? 0 : 1;
    n += 1;
    if (iterations !== undefined ? n >= iterations : n % 64 === 0 && performance.now() - t0 >= ms) break;
  }
  const elapsed = performance.now() - t0;
  if (sink < 0) console.log(sink);
  return (elapsed * 1000) / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const all = bodies();
const results = {};
for (const [name, list] of Object.entries(all)) {
  const texts = list.map((b) => b.toString('utf8'));
  const large = list[0].length > 1024 * 1024;
  const budget = large ? { iterations: opts['large-iterations'] } : { ms: opts['small-ms'] };
  // Warm every alternative up before any is measured.
  for (const fn of Object.values(ALTERNATIVES)) time(fn, list, texts, large ? { iterations: 2 } : { ms: 100 });
  const samples = Object.fromEntries(Object.keys(ALTERNATIVES).map((k) => [k, []]));
  const order = Object.entries(ALTERNATIVES);
  for (let r = 0; r < opts.rounds; r++) {
    for (const [alt, fn] of order) samples[alt].push(time(fn, list, texts, budget));
    order.push(order.shift());
  }
  const floor = Math.min(...samples.floor);
  const bytes = Math.round(list.reduce((s, b) => s + b.length, 0) / list.length);
  results[name] = { bytes, us: {}, x_floor: {}, mb_per_s: {}, us_median: {}, x_floor_median: {} };
  for (const [alt, xs] of Object.entries(samples)) {
    const us = Math.min(...xs);
    results[name].us[alt] = round(us, 2);
    results[name].x_floor[alt] = round(us / floor, 2);
    results[name].mb_per_s[alt] = round(bytes / us, 1);
    results[name].us_median[alt] = round(median(xs), 2);
    results[name].x_floor_median[alt] = round(median(xs) / median(samples.floor), 2);
  }
  printTable(
    [
      ['alternative', 'µs/parse (best)', 'x floor', 'MB/s', 'x floor (median)'],
      ...Object.keys(ALTERNATIVES).map((alt) => [
        alt,
        results[name].us[alt] < 100 ? results[name].us[alt].toFixed(2) : fmtInt(results[name].us[alt]),
        results[name].x_floor[alt].toFixed(2),
        results[name].mb_per_s[alt],
        results[name].x_floor_median[alt].toFixed(2),
      ]),
    ],
    `${name} (${fmtInt(bytes)} bytes; floor = JSON.parse(buf.toString()))`,
  );
}

mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
const record = { when: new Date().toISOString(), machine: machine(), options: recordedOptions(opts), max_request_depth: MAX_REQUEST_DEPTH, results };
writeFileSync(opts.out, `${JSON.stringify(record, null, 2)}\n`);
console.log(`wrote ${opts.out}`);
