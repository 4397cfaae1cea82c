#!/usr/bin/env node
// Evidence recall on a public data set (issue 37, item 1): the development half of LoCoMo
// through a served gate, each mode of gv.recall beside a plain BM25 over the same turns
// computed in the same run, so a figure can be told apart from what any keyword index gets.
// The data is read from ../shared/data/locomo-dev/ (outside the repository) and never copied
// into it: the results file holds counts and figures only.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ADMIN_PROMOTES_ENV, BENCH_DIR, HttpClient, REPO_ROOT, SocketClient, gitShortHead, machine, parseOptions, percentiles, printTable, readAndPromote, recordedPath, round, sharedDataDir, startGate, tempDir } from './lib.js';
import { locomoClaim } from './locomo-claim.js';

const DEFAULT_DATA = join(sharedDataDir(), 'locomo-dev');
const DEFAULT_CONVERSATIONS = '26,30,41,42,43';
const MODES = ['lexical', 'vector', 'hybrid'];
const CATEGORIES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
const K = 10;
/** Where the files come from, as the data folder's README says; recorded with every result. */
const PROVENANCE = 'LoCoMo (Maharana et al., 2024), public repository snap-research/locomo, data/locomo10.zip, files 26, 30, 41, 42, 43 (development half)';
/** What the issue recorded for this measure (gate main 117428f, local defaults), printed beside ours. */
const ISSUE_REFERENCE = { lexical: 0.575, vector: 0.476, hybrid: 0.571, bm25: 0.585 };

const USAGE = `
node bench/recall-quality-public.js [options]

Evidence recall@10 on the development half of LoCoMo (public research data, ${PROVENANCE}),
read from --data (never copied into this repository). Starts one gate in a temporary home,
creates one space a conversation, ingests every turn as one claim ("<speaker> (<session
date>): <text>", plus " [shares <blip_caption>]" when the turn shares a photo; kind memory,
source_uri locomo://<conversation>/session_<n>#<dia_id>), promotes each, waits until every space's last
claim is embedded, then asks each question of categories 1-4 with gv.recall (k 10) in its
conversation's space in mode lexical, vector and hybrid. Evidence recall@10 = the share of a
question's evidence turns among the 10 hits, averaged over questions, overall and per
category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop). Beside it, in the same run:
a plain BM25 (SQLite FTS5, tokenize 'porter unicode61', one table a conversation, the
question's terms ORed, ranked by bm25(), top 10) over the same claim texts.

Evidence ids: a string holding several ids ("D8:6; D9:17") is split; "D:11:26" is read as
D11:26; an id naming no turn of its conversation is dropped; a question left with no evidence
is skipped. Each is counted in the output. Also reports gv.recall's p50/p99 latency a mode.
Takes a few minutes (embedding 2,760 claims dominates). Writes
bench/results/recall-quality-public.json (counts and figures only; no data).`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    data: { type: 'string', default: DEFAULT_DATA, help: 'the folder of LoCoMo conversation files (<n>.json)' },
    conversations: { type: 'string', default: DEFAULT_CONVERSATIONS, help: 'which conversation files, comma-separated' },
    out: { type: 'string', default: join(BENCH_DIR, 'results', 'recall-quality-public.json'), help: 'results file ("" to write none)' },
    'embed-timeout': { type: 'number', default: 900, help: 'seconds to wait for every claim to be embedded' },
  },
  USAGE,
);
const log = (s) => process.stdout.write(`${s}\n`);

// ---------------------------------------------------------------- reading the data

/** Every turn of a conversation in session order: {diaId, session, text}. Sessions with a date but no turns are skipped. */
function turnsOf(conversation) {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((m) => m && Array.isArray(conversation[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  return sessions.flatMap((n) => conversation[`session_${n}`].map((turn) => ({ diaId: turn.dia_id, session: n, text: locomoClaim(turn, conversation[`session_${n}_date_time`]) })));
}

/**
 * A question's evidence as ids of turns that exist, and what was odd about it. LoCoMo's
 * annotations hold a few slips: several ids in one string, a stray colon, a bare "D", ids of
 * turns the conversation does not have. Split and repair what has one reading; drop the rest.
 */
function cleanEvidence(raw, turnIds, odd) {
  const ids = new Set();
  for (const entry of raw) {
    const parts = String(entry).split(/[;,]/).map((s) => s.trim()).filter(Boolean);
    if (parts.length > 1) odd.split += 1;
    for (let id of parts) {
      const repaired = id.replace(/^D:(\d+):(\d+)$/, 'D$1:$2');
      if (repaired !== id) {
        odd.repaired += 1;
        id = repaired;
      }
      if (turnIds.has(id)) ids.add(id);
      else if (/^D\d+:\d+$/.test(id)) odd.dropped_no_such_turn += 1;
      else odd.dropped_malformed += 1;
    }
  }
  return [...ids];
}

/** Reads the conversations: {name, turns, questions: [{text, category, evidence}]}, and the evidence counts. */
function readConversations(dir, names) {
  const odd = { split: 0, repaired: 0, dropped_malformed: 0, dropped_no_such_turn: 0, questions_skipped_no_evidence: 0 };
  const conversations = names.map((name) => {
    const file = join(dir, `${name}.json`);
    if (!existsSync(file)) throw new UsageError(`no conversation file ${file} (see --conversations and --data)`);
    const conversation = JSON.parse(readFileSync(file, 'utf8'));
    const turns = turnsOf(conversation);
    const turnIds = new Set(turns.map((t) => t.diaId));
    const questions = [];
    for (const qa of conversation.qa) {
      if (!(qa.category in CATEGORIES)) continue; // 5 is adversarial: no answer in the conversation
      const evidence = cleanEvidence(qa.evidence ?? [], turnIds, odd);
      if (evidence.length === 0) odd.questions_skipped_no_evidence += 1;
      else questions.push({ text: qa.question, category: qa.category, evidence });
    }
    return { name, turns, questions };
  });
  return { conversations, odd };
}

class UsageError extends Error {}

// ---------------------------------------------------------------- the measure

/** Share of the evidence among the hits' dia_ids (a hit may stand for several turns of the same text). */
function evidenceRecall(hitIds, evidence) {
  const found = new Set(hitIds);
  return evidence.filter((id) => found.has(id)).length / evidence.length;
}

/** Accumulates recall over questions, overall and per category. */
class Tally {
  constructor() {
    this.sum = 0;
    this.n = 0;
    this.byCategory = Object.fromEntries(Object.keys(CATEGORIES).map((c) => [c, { sum: 0, n: 0 }]));
  }

  add(category, recall) {
    this.sum += recall;
    this.n += 1;
    this.byCategory[category].sum += recall;
    this.byCategory[category].n += 1;
  }

  summary() {
    const mean = ({ sum, n }) => (n === 0 ? null : round(sum / n, 3));
    return {
      recall_at_10: mean(this),
      questions: this.n,
      by_category: Object.fromEntries(Object.entries(CATEGORIES).map(([c, label]) => [label, { recall_at_10: mean(this.byCategory[c]), questions: this.byCategory[c].n }])),
    };
  }
}

// ---------------------------------------------------------------- the BM25 reference

/** The question as an FTS5 query: each term quoted (so no word is read as syntax), ORed. */
function ftsQuery(text) {
  const terms = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)].map((t) => `"${t}"`).join(' OR ');
}

/**
 * Plain BM25: one FTS5 table a conversation (so its statistics are those of the
 * conversation, as a space's are), Porter stemming, any term, top K by bm25(). In memory.
 */
function bm25Reference(conversations) {
  const db = new Database(':memory:');
  const tally = new Tally();
  try {
    conversations.forEach((conv, i) => {
      db.exec(`CREATE VIRTUAL TABLE c${i} USING fts5(text, dia_id UNINDEXED, tokenize='porter unicode61')`);
      const insert = db.prepare(`INSERT INTO c${i} (text, dia_id) VALUES (?, ?)`);
      db.transaction(() => {
        for (const t of conv.turns) insert.run(t.text, t.diaId);
      })();
      const search = db.prepare(`SELECT dia_id FROM c${i} WHERE c${i} MATCH ? ORDER BY bm25(c${i}) LIMIT ${K}`).pluck();
      for (const q of conv.questions) {
        const query = ftsQuery(q.text);
        const hits = query ? search.all(query) : [];
        tally.add(q.category, evidenceRecall(hits, q.evidence));
      }
    });
  } finally {
    db.close();
  }
  return tally.summary();
}

// ---------------------------------------------------------------- the gate side

/** Progress on one line every `every` items, so a person sees a long step moving. */
function progress(label, total, every = 200) {
  let done = 0;
  const t0 = performance.now();
  return () => {
    done += 1;
    if (done % every === 0 || done === total) log(`  ${label}: ${done}/${total} (${round((performance.now() - t0) / 1000, 1)} s)`);
  };
}

/**
 * A turn's source_uri: its session as the source and the turn as the fragment, as an agent
 * recording a conversation would write it, so recall's neighbour context (docs/recall.md)
 * knows which claims were said one after another.
 */
const sourceUri = (conversation, turn) => `locomo://${conversation}/session_${turn.session}#${turn.diaId}`;

/**
 * Ingests and promotes every turn of a conversation in its own space; answers the map
 * artifact_id -> dia_ids (a turn whose claim text repeats an earlier one of the same space is
 * answered with the earlier row, so one row may stand for several turns) and the last row
 * promoted, which the embedding wait looks for.
 */
async function ingestConversation(rpc, admin, principal, conv, step, counts) {
  const space = `locomo-${conv.name}`;
  // Only main is open to every caller; a space of one's own needs the agent granted into it.
  await admin.call('gv.space_create', { name: space, policy: 'auto' });
  await admin.call('gv.grant', { action: 'issue', grants: [{ principal, space, capabilities: ['read', 'contribute'] }] });
  const diaIdsOf = new Map();
  let last = null;
  for (const t of conv.turns) {
    const answer = await rpc('gv.ingest', { content: t.text, kind: 'memory', space, workarea: 'locomo', source_uri: sourceUri(conv.name, t) });
    if (answer.duplicate) counts.duplicate_turns += 1;
    else {
      await readAndPromote(admin, answer.artifact_id);
      last = { id: answer.artifact_id, text: t.text };
    }
    if (!diaIdsOf.has(answer.artifact_id)) diaIdsOf.set(answer.artifact_id, []);
    diaIdsOf.get(answer.artifact_id).push(t.diaId);
    step();
  }
  return { space, diaIdsOf, last };
}

/**
 * Waits until each space's last promoted claim is found by the vector list for its own text:
 * the embedder works through promoted rows in order, so the last one found means the space
 * is embedded. (Found, not first: the query's words are weighed and its neighbours lend it
 * context, so another row may rank above it.)
 */
async function waitEmbedded(rpc, spaces, timeoutS) {
  const t0 = Date.now();
  const pending = new Set(spaces);
  let lastReport = 0;
  while (pending.size > 0) {
    for (const s of [...pending]) {
      const hits = (await rpc('gv.recall', { query: s.last.text, k: 10, mode: 'vector', space: s.space })).hits;
      if (hits.some((h) => h.artifact_id === s.last.id && h.signals?.vector !== undefined)) pending.delete(s);
    }
    if (pending.size === 0) break;
    if (Date.now() - t0 > timeoutS * 1000) throw new Error(`the claims were not embedded within ${timeoutS} s (see --embed-timeout)`);
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      log(`  embedding: ${spaces.length - pending.size}/${spaces.length} spaces done (${Math.round((Date.now() - t0) / 1000)} s)`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return (Date.now() - t0) / 1000;
}

/** Every question in its space, in one mode: the tally and the latency of each call. */
async function askAll(rpc, conversations, spaces, mode) {
  const tally = new Tally();
  const ms = [];
  const total = conversations.reduce((n, c) => n + c.questions.length, 0);
  const step = progress(`${mode} queries`, total, 250);
  for (let i = 0; i < conversations.length; i++) {
    const { space, diaIdsOf } = spaces[i];
    for (const q of conversations[i].questions) {
      const t0 = performance.now();
      const { hits } = await rpc('gv.recall', { query: q.text, k: K, mode, space });
      ms.push(performance.now() - t0);
      tally.add(q.category, evidenceRecall(hits.flatMap((h) => diaIdsOf.get(h.artifact_id) ?? []), q.evidence));
      step();
    }
  }
  const p = percentiles(ms, [50, 99]);
  return { ...tally.summary(), p50_ms: round(p[50], 2), p99_ms: round(p[99], 2) };
}

// ---------------------------------------------------------------- reporting

function report(results, bm25) {
  const rows = [['', 'recall@10', ...Object.values(CATEGORIES), 'p50 ms', 'p99 ms', 'issue (all 5)']];
  const row = (name, r, ref) => [name, r.recall_at_10.toFixed(3), ...Object.values(CATEGORIES).map((c) => r.by_category[c].recall_at_10?.toFixed(3) ?? '-'), r.p50_ms ?? '', r.p99_ms ?? '', ref.toFixed(3)];
  for (const m of MODES) rows.push(row(`gv.recall ${m}`, results[m], ISSUE_REFERENCE[m]));
  rows.push(row('plain BM25 (FTS5)', bm25, ISSUE_REFERENCE.bm25));
  const n = bm25.by_category;
  printTable(rows, `Evidence recall@10, LoCoMo dev half (questions: ${bm25.questions}; ${Object.values(CATEGORIES).map((c) => `${c} ${n[c].questions}`).join(', ')})`);
}

// ---------------------------------------------------------------- main

async function main() {
  const t0 = performance.now();
  if (!existsSync(opts.data)) {
    throw new UsageError(`the LoCoMo data folder ${opts.data} does not exist; name it with --data DIR (it is not in this repository: see bench/README.md)`);
  }
  const names = opts.conversations.split(',').map((s) => s.trim()).filter(Boolean);
  const { conversations, odd } = readConversations(opts.data, names);
  const counts = {
    conversations: conversations.length,
    turns: conversations.reduce((n, c) => n + c.turns.length, 0),
    questions: conversations.reduce((n, c) => n + c.questions.length, 0),
    duplicate_turns: 0,
  };
  log(`data: ${opts.data} (${PROVENANCE})`);
  log(`${counts.turns} turns, ${counts.questions} questions of categories 1-4; evidence: ${JSON.stringify(odd)}`);

  const bm25 = bm25Reference(conversations);
  log(`plain BM25 reference: recall@10 ${bm25.recall_at_10}`);

  const gate = await startGate({ home: join(tempDir('gate-bench-locomo'), 'home'), removeHome: true, env: ADMIN_PROMOTES_ENV });
  const admin = await SocketClient.open(gate.socketPath);
  const client = new HttpClient(gate.url, { maxSockets: 1 });
  try {
    const { key, key_id: keyId } = await admin.call('gv.keys', { action: 'issue', role: 'agent', label: 'locomo' });
    const rpc = async (method, params) => {
      const { body } = await client.send(key, method, params);
      if (body?.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    };
    const tIngest = performance.now();
    const step = progress('ingest and promote', counts.turns, 250);
    const spaces = [];
    for (const conv of conversations) spaces.push(await ingestConversation(rpc, admin, `key:${keyId}`, conv, step, counts));
    const ingestS = (performance.now() - tIngest) / 1000;
    log(`waiting for the vectors of ${counts.turns - counts.duplicate_turns} claims`);
    const embedS = await waitEmbedded(rpc, spaces, opts['embed-timeout']);
    log(`  embedded in ${round(embedS, 1)} s after the last promotion`);

    const results = {};
    for (const mode of MODES) results[mode] = await askAll(rpc, conversations, spaces, mode);
    report(results, bm25);
    const totalS = round((performance.now() - t0) / 1000, 1);
    const build = gitShortHead();
    log(`build ${build}, ${totalS} s in all (ingest and promote ${round(ingestS, 1)} s, embedding wait ${round(embedS, 1)} s)`);
    log('evidence ids: several in one string are split, "D:n:m" read as Dn:m, ids naming no turn dropped, questions left with none skipped');
    if (opts.out) {
      const out = {
        source: { data: recordedPath(opts.data), provenance: PROVENANCE, conversations: names },
        measured_at: new Date().toISOString(),
        build,
        machine: machine(),
        k: K,
        counts,
        evidence: { ...odd, rule: 'split ids joined by ; or ,; "D:n:m" read as "Dn:m"; ids naming no turn of the conversation dropped; questions left without evidence skipped' },
        claim_form: '"<speaker> (<session date>): <text>" + " [shares <blip_caption>]" when the turn shares a photo; kind memory; source_uri locomo://<conversation>/session_<n>#<dia_id>; one space a conversation; promoted',
        modes: results,
        bm25_reference: { ...bm25, how: "SQLite FTS5 in process, tokenize 'porter unicode61', one table a conversation, the question's terms quoted and ORed, ordered by bm25(), top 10" },
        issue_reference: ISSUE_REFERENCE,
        seconds: { total: totalS, ingest_and_promote: round(ingestS, 1), embedding_wait: round(embedS, 1) },
      };
      writeFileSync(opts.out, `${JSON.stringify(out, null, 2)}\n`);
      log(`wrote ${opts.out}`);
    }
  } finally {
    client.close();
    admin.close();
    await gate.stop();
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    process.stderr.write(`recall-quality-public: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
