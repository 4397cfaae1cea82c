#!/usr/bin/env node
// Evidence recall on a public data set (issue 37, item 1): the development half of LoCoMo
// through a served gate, each mode of gv.recall beside a plain BM25 over the same turns
// computed in the same run, so a figure can be told apart from what any keyword index gets.
// The data is read from ../shared/data/locomo-dev/ (outside the repository) and never copied
// into it: the results file holds counts and figures only.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

Also in the same run, the baseline of issue 48: the same FTS5 table with bm25() defaults, the
question's words left out when they are in NLTK's English stop-word list (179 words, below),
and each of the top hits followed by its next and previous turn of the same session until ten.
Each figure is given per conversation too.

With --cv, the gate is restarted over the same home at each setting of a small grid of its
[recall] settings (docs/configuration.md: recall.fusion, lexical_weight, context_share,
answer_share, context_reach) and every question asked again; each mode is then reported
leave-one-conversation-out: for each conversation, the setting best on the other four
(questions pooled; ties to the earlier setting, the defaults first) is measured on it, and the
five figures averaged ("cross-validated"); beside it the setting best on the whole half,
measured on the whole half ("fitted").

Evidence ids: a string holding several ids ("D8:6; D9:17") is split; "D:11:26" is read as
D11:26; an id naming no turn of its conversation is dropped; a question left with no evidence
is skipped. Each is counted in the output. Also reports gv.recall's p50/p99 latency a mode.
Takes a few minutes (embedding 2,760 claims dominates). Writes
bench/results/recall-quality-public.json (counts and figures only; no data).

The operator's models (docs/recall.md): without the options below the gate's local defaults
serve (hashed n-grams, no re-ranker), and the results say so in "models". --embed-url and
--embed-model point the gate at an OpenAI-compatible embeddings endpoint (embed.backend
"openai", embed.url, embed.model, embed.dimensions from --embed-dimensions, embed.api_key_env
from --embed-key-env); --rerank-url and --rerank-model at a text-embeddings-inference
re-ranker (rerank.url, rerank.api_key_env from --rerank-key-env). They reach the gate as
GATE_EMBED_* and GATE_RERANK_* variables; a key stays in the variable --*-key-env names, in
this process's environment, which the gate inherits (as any other GATE_* setting, e.g.
GATE_RERANK_TIMEOUT_MS for a re-ranker slower than its 500 ms deadline). Such a run is
recorded in the results file under runs_with_models["embed=<model>;rerank=<model or none>"],
beside the local run's figures and never over them, with the models' names and the endpoints'
hosts (no key, no URL path), and with a re-ranker, how many questions its answer ordered.`;

/** The options; exported with the functions below so a test can hold the bench's option handling (test/bench/). */
export const OPTIONS = {
  data: { type: 'string', default: DEFAULT_DATA, help: 'the folder of LoCoMo conversation files (<n>.json)' },
  conversations: { type: 'string', default: DEFAULT_CONVERSATIONS, help: 'which conversation files, comma-separated' },
  out: { type: 'string', default: join(BENCH_DIR, 'results', 'recall-quality-public.json'), help: 'results file ("" to write none); a run with --embed-url or --rerank-url is recorded in it under runs_with_models' },
  'embed-timeout': { type: 'number', default: 900, help: 'seconds to wait for every claim to be embedded' },
  'runs-out': { type: 'string', default: '', help: 'with --cv, a file (outside the repository) for every question\'s recall at every setting, to study' },
  cv: { type: 'boolean', default: false, help: 'also run the gate at each setting of the [recall] grid and report every mode leave-one-conversation-out' },
  'embed-url': { type: 'string', default: '', help: 'an OpenAI-compatible embeddings endpoint\'s base URL (the gate posts {url}/embeddings: embed.backend "openai"); empty: the gate\'s local embedder' },
  'embed-model': { type: 'string', default: '', help: 'the embedding model\'s name, sent with each request and recorded (needed with --embed-url)' },
  'embed-key-env': { type: 'string', default: '', help: 'the NAME of the environment variable holding the embedding endpoint\'s key (never the key itself); empty: no key sent' },
  'embed-dimensions': { type: 'number', default: 512, help: 'the vector length asked of the embedding model (embed.dimensions; with --embed-url only)' },
  'rerank-url': { type: 'string', default: '', help: 'a text-embeddings-inference re-ranker\'s base URL (the gate posts {url}/rerank: rerank.url); empty: no re-ranker' },
  'rerank-model': { type: 'string', default: '', help: 'the re-ranker\'s model name, recorded (TEI\'s /rerank takes none: the name is what the server runs; needed with --rerank-url)' },
  'rerank-key-env': { type: 'string', default: '', help: 'the NAME of the environment variable holding the re-ranker\'s key (never the key itself); empty: no key sent' },
};
const log = (s) => process.stdout.write(`${s}\n`);

// ---------------------------------------------------------------- the operator's models

/** What the results name as the embedding when no endpoint is given: the gate's local embedder. */
export const LOCAL_EMBED = 'local hashed n-grams';

/** The gate's variables that choose a model (docs/configuration.md); the bench sets them from its options only. */
const MODEL_VARIABLES = ['GATE_EMBED_BACKEND', 'GATE_EMBED_URL', 'GATE_EMBED_MODEL', 'GATE_EMBED_DIMENSIONS', 'GATE_EMBED_API_KEY_ENV', 'GATE_RERANK_URL', 'GATE_RERANK_API_KEY_ENV'];

/** An endpoint's host (and port) as recorded: its path and any credentials in the URL stay out of the results. */
function endpointHost(option, url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--${option} ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--${option} must be an http or https URL`);
  return parsed.host;
}

/** The NAME of a key's variable, checked set: a gate without its key would fail every call, and the figure would be the local order's. */
function keyEnv(option, name, env) {
  if (name === '') return null;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--${option} takes the NAME of an environment variable, not ${JSON.stringify(name)}`);
  if (!env[name]) throw new UsageError(`--${option} names ${name}, which is not set in this environment (the gate started here inherits it)`);
  return name;
}

/**
 * One endpoint's options (--<what>-url, --<what>-model, --<what>-key-env), checked: null when
 * none is given; else its URL and model, which go together (`why` says why), its host as
 * recorded, and the name of its key's variable (null: no key).
 */
function endpointOptions(what, opts, env, why) {
  const url = opts[`${what}-url`] ?? '';
  const model = opts[`${what}-model`] ?? '';
  const keyOption = opts[`${what}-key-env`] ?? '';
  if (url === '' && model === '' && keyOption === '') return null;
  if (url === '' || model === '') throw new UsageError(`--${what}-url and --${what}-model go together (${why})`);
  return { url, model, host: endpointHost(`${what}-url`, url), keyName: keyEnv(`${what}-key-env`, keyOption, env) };
}

/**
 * The options' models as the gate's configuration (docs/configuration.md: [embed] and
 * [rerank], each key as its GATE_<SECTION>_<KEY> variable, which wins over the home's
 * gate.toml) and what the results record of them: `models` names the embedding and the
 * re-ranker, `endpoints` each one's host, model and the name of its key's variable. With
 * neither --embed-url nor --rerank-url the gate gets nothing and the local defaults serve.
 * `env` is where the key variables are looked for: the environment the gate will inherit.
 */
export function modelSetup(opts, env = process.env) {
  // The gate inherits this environment: a model set there and not here would be measured under the local defaults' name.
  const inherited = MODEL_VARIABLES.filter((name) => (env[name] ?? '') !== '' && !(name === 'GATE_EMBED_BACKEND' && env[name] === 'local'));
  if (inherited.length > 0) throw new UsageError(`this environment sets ${inherited.join(', ')}; name the models with --embed-url, --rerank-url and the rest, so the results record them`);
  const gateEnv = {};
  const models = { embed: LOCAL_EMBED, rerank: null };
  const endpoints = {};
  const embed = endpointOptions('embed', opts, env, "the gate's openai backend needs both");
  if (embed !== null) {
    const dimensions = opts['embed-dimensions'];
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new UsageError('--embed-dimensions must be a whole number above 0');
    Object.assign(gateEnv, { GATE_EMBED_BACKEND: 'openai', GATE_EMBED_URL: embed.url, GATE_EMBED_MODEL: embed.model, GATE_EMBED_DIMENSIONS: String(dimensions) });
    if (embed.keyName !== null) gateEnv.GATE_EMBED_API_KEY_ENV = embed.keyName;
    models.embed = embed.model;
    endpoints.embed = { model: embed.model, host: embed.host, dimensions, api_key_env: embed.keyName };
  }
  // TEI's /rerank names no model, so the name is the operator's word; a figure without one could not say what it measured.
  const rerank = endpointOptions('rerank', opts, env, "the model's name is what the results record");
  if (rerank !== null) {
    gateEnv.GATE_RERANK_URL = rerank.url;
    if (rerank.keyName !== null) gateEnv.GATE_RERANK_API_KEY_ENV = rerank.keyName;
    models.rerank = rerank.model;
    endpoints.rerank = { model: rerank.model, host: rerank.host, api_key_env: rerank.keyName };
  }
  return { env: gateEnv, models, endpoints, local: Object.keys(endpoints).length === 0 };
}

/** The key a run with models is recorded under: the model set, so each set keeps its own figures. */
export const modelSetKey = (models) => `embed=${models.embed};rerank=${models.rerank ?? 'none'}`;

/**
 * The results file's new content. The local run's figures are the file's top level, as they
 * always were (docs/recall.md marks figures there), and keep the runs with models the file
 * held; a run with models goes into runs_with_models under its model set and leaves the rest
 * of the file as it was, so measuring an operator's models never overwrites the local figures.
 */
export function recordResults(existing, run, setup) {
  const withModels = existing?.runs_with_models ?? {};
  if (setup.local) return Object.keys(withModels).length === 0 ? run : { ...run, runs_with_models: withModels };
  return { ...(existing ?? {}), runs_with_models: { ...withModels, [modelSetKey(setup.models)]: run } };
}

/**
 * The results file as it stands, or null when there is none. A run with models is added to
 * the file, so one that is not JSON is refused (called before the run as well, not only after
 * it); the local run replaces such a file, as it always did.
 */
function readResults(path, setup) {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (setup.local) return null;
    throw new UsageError(`${path} is there but not JSON (${error.message}); a run with models is added to it, so name another with --out`);
  }
}

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

export class UsageError extends Error {}

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

/**
 * One run's answers: for each conversation (in the order read), each question's {category,
 * recall}. Summed over questions (pooled), by category, and per conversation.
 */
function summarize(perConversation, names) {
  const tally = new Tally();
  for (const qs of perConversation) for (const q of qs) tally.add(q.category, q.recall);
  return {
    ...tally.summary(),
    by_conversation: Object.fromEntries(names.map((name, i) => [name, { recall_at_10: round(pooledRecall(perConversation, (c) => c === i), 3), questions: perConversation[i].length }])),
  };
}

/** Mean recall over the questions of the conversations `include` takes (by index). */
function pooledRecall(perConversation, include) {
  let sum = 0;
  let n = 0;
  perConversation.forEach((qs, i) => {
    if (!include(i)) return;
    for (const q of qs) {
      sum += q.recall;
      n += 1;
    }
  });
  return n === 0 ? 0 : sum / n;
}

// ---------------------------------------------------------------- the BM25 reference

/**
 * NLTK's English stop-word list (nltk.corpus.stopwords.words('english'), 179 words): the
 * "common English stop-word list" of issue 48's baseline. Named so the baseline can be
 * rebuilt by anyone; recall's own function words are workers/embed/stopwords.ts.
 */
const NLTK_ENGLISH_STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him his himself she
  she's her hers herself it it's its itself they them their theirs themselves what which who whom this that that'll these
  those am is are was were be been being have has had having do does did doing a an the and but if or because as until
  while of at by for with about against between into through during before after above below to from up down in out on
  off over under again further then once here there when where why how all any both each few more most other some such
  no nor not only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain aren
  aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't
  mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't`.split(/\s+/),
);

/** The question's words as an FTS5 query: each term quoted (so no word is read as syntax), ORed; `drop` leaves words out. */
function ftsQuery(text, drop = new Set()) {
  const terms = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)].filter((t) => !drop.has(t)).map((t) => `"${t}"`).join(' OR ');
}

/**
 * The baseline's ten: each hit in bm25 order, then the turn after it and the turn before it
 * in its session, each turn once, until ten.
 */
function withNextAndPrevious(hits, turns, k) {
  const at = new Map(turns.map((t, i) => [t.diaId, i]));
  const out = [];
  const add = (turn) => {
    if (turn !== undefined && out.length < k && !out.includes(turn.diaId)) out.push(turn.diaId);
  };
  for (const id of hits) {
    const i = at.get(id);
    add(turns[i]);
    if (turns[i + 1]?.session === turns[i].session) add(turns[i + 1]);
    if (turns[i - 1]?.session === turns[i].session) add(turns[i - 1]);
    if (out.length >= k) break;
  }
  return out;
}

/**
 * Two keyword references over the same claim texts, one FTS5 table a conversation (so its
 * statistics are the conversation's, as a space's are), Porter stems, bm25() at its defaults,
 * in memory: `plain` (the question's words ORed, top K) and `baseline` (issue 48's: NLTK's
 * stop words left out of the question, and each top hit followed by its next and previous
 * turn until K). Answers each one's per-conversation question recalls.
 */
function keywordReferences(conversations) {
  const db = new Database(':memory:');
  const plain = [];
  const baseline = [];
  try {
    conversations.forEach((conv, i) => {
      db.exec(`CREATE VIRTUAL TABLE c${i} USING fts5(text, dia_id UNINDEXED, tokenize='porter unicode61')`);
      const insert = db.prepare(`INSERT INTO c${i} (text, dia_id) VALUES (?, ?)`);
      db.transaction(() => {
        for (const t of conv.turns) insert.run(t.text, t.diaId);
      })();
      const search = db.prepare(`SELECT dia_id FROM c${i} WHERE c${i} MATCH ? ORDER BY bm25(c${i}) LIMIT ${K}`).pluck();
      const plainHere = [];
      const baselineHere = [];
      for (const q of conv.questions) {
        const query = ftsQuery(q.text);
        plainHere.push({ category: q.category, recall: evidenceRecall(query ? search.all(query) : [], q.evidence) });
        // A question of nothing but stop words keeps its words, as recall's own query does.
        const content = ftsQuery(q.text, NLTK_ENGLISH_STOP_WORDS) || query;
        const hits = content ? search.all(content) : [];
        baselineHere.push({ category: q.category, recall: evidenceRecall(withNextAndPrevious(hits, conv.turns, K), q.evidence) });
      }
      plain.push(plainHere);
      baseline.push(baselineHere);
    });
  } finally {
    db.close();
  }
  return { plain, baseline };
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

/** Every question in its space, in one mode: each conversation's question recalls, the latency of each call, and how many a re-ranker ordered. */
async function askAll(rpc, conversations, spaces, mode, label = mode) {
  const perConversation = [];
  const ms = [];
  // A re-ranker late or failing leaves a recall in its own order (docs/recall.md): counted, so a figure says how much of it the model ordered.
  let reranked = 0;
  const total = conversations.reduce((n, c) => n + c.questions.length, 0);
  const step = progress(`${label} queries`, total, total);
  for (let i = 0; i < conversations.length; i++) {
    const { space, diaIdsOf } = spaces[i];
    const here = [];
    for (const q of conversations[i].questions) {
      const t0 = performance.now();
      const { hits } = await rpc('gv.recall', { query: q.text, k: K, mode, space });
      ms.push(performance.now() - t0);
      if (hits.some((h) => h.signals?.rerank !== undefined)) reranked += 1;
      here.push({ category: q.category, recall: evidenceRecall(hits.flatMap((h) => diaIdsOf.get(h.artifact_id) ?? []), q.evidence) });
      step();
    }
    perConversation.push(here);
  }
  return { perConversation, ms, reranked };
}

// ---------------------------------------------------------------- cross-validation

/** The gate's [recall] settings at their defaults (docs/configuration.md); the grid's first setting. */
const DEFAULT_SETTING = { fusion: 'scaled', lexical_weight: 0.7, context_share: 0.35, answer_share: 1, context_reach: 2 };

/**
 * The grid --cv runs: neighbour context's shares and reach (every mode reads them), and for
 * hybrid also the fusion rule and lexical weight. An answer share of 0.45 is the question
 * rule off (the answer gets what every neighbour gets); a lexical weight of 1 is no fusion
 * (the vector list only adds rows below the lexical ones). The defaults come first, so a tie
 * keeps them.
 */
function settingsGrid() {
  const contexts = [
    { context_share: 0.35, answer_share: 1, context_reach: 2 },
    ...[0.35, 0.45, 0.55].flatMap((share) => [0.45, 1].map((answer) => ({ context_share: share, answer_share: answer, context_reach: 2 }))),
    { context_share: 0.35, answer_share: 1, context_reach: 1 },
    { context_share: 0.35, answer_share: 1, context_reach: 3 },
    { context_share: 0.45, answer_share: 1, context_reach: 1 },
    { context_share: 0.45, answer_share: 1, context_reach: 3 },
  ].filter((c, i, all) => all.findIndex((o) => JSON.stringify(o) === JSON.stringify(c)) === i);
  const fusions = [
    { fusion: 'scaled', lexical_weight: 0.7 },
    ...[0.6, 0.8, 0.9, 1].map((w) => ({ fusion: 'scaled', lexical_weight: w })),
    ...[0.6, 0.7, 0.8, 0.9].map((w) => ({ fusion: 'agreement', lexical_weight: w })),
  ];
  return contexts.map((context) => fusions.map((fusion) => ({ ...fusion, ...context })));
}

const settingName = (s) => `${s.fusion} ${s.lexical_weight}, context ${s.context_share}/${s.answer_share}/${s.context_reach}`;

/**
 * Leave-one-conversation-out over runs [{setting, perConversation}] of one mode: for each
 * conversation, the setting best on the other four (their questions pooled; a tie keeps the
 * earlier setting) is measured on it. `cross_validated` is the five figures' mean; `fitted`
 * is the setting best on the whole half measured on the whole half (pooled, as the single
 * figure always was), with its five figures' mean beside it.
 */
function crossValidate(runs, names) {
  const bestOn = (include) => {
    let best = 0;
    let bestRecall = -1;
    runs.forEach((r, j) => {
      const recall = pooledRecall(r.perConversation, include);
      if (recall > bestRecall + 1e-12) {
        best = j;
        bestRecall = recall;
      }
    });
    return runs[best];
  };
  const folds = names.map((name, c) => {
    const chosen = bestOn((i) => i !== c);
    return { conversation: name, chosen: chosen.setting, recall_at_10: round(pooledRecall(chosen.perConversation, (i) => i === c), 3), exact: pooledRecall(chosen.perConversation, (i) => i === c) };
  });
  const fitted = bestOn(() => true);
  const meanOfFive = (f) => names.reduce((sum, _, c) => sum + f(c), 0) / names.length;
  return {
    cross_validated: round(meanOfFive((c) => folds[c].exact), 3),
    by_conversation: Object.fromEntries(folds.map((f) => [f.conversation, { recall_at_10: f.recall_at_10, chosen: f.chosen }])),
    fitted: {
      recall_at_10: round(pooledRecall(fitted.perConversation, () => true), 3),
      mean_of_conversations: round(meanOfFive((c) => pooledRecall(fitted.perConversation, (i) => i === c)), 3),
      setting: fitted.setting,
      by_conversation: Object.fromEntries(names.map((name, c) => [name, round(pooledRecall(fitted.perConversation, (i) => i === c), 3)])),
    },
    settings_tried: runs.length,
  };
}

/** Saves the [recall] settings on the running gate (live keys: the next recall ranks by them). */
async function applySetting(admin, setting) {
  const changes = Object.fromEntries(Object.entries(setting).map(([key, value]) => [`recall.${key}`, value]));
  const answer = await admin.call('gv.settings_save', { changes });
  if (answer.restart_required.length > 0) throw new Error(`recall settings wait for a restart: ${answer.restart_required.join(', ')}`);
}

/** Every setting of the grid on the running gate: each mode's runs [{setting, perConversation}]. */
async function runGrid(admin, rpc, conversations, spaces) {
  const runs = { lexical: [], vector: [], hybrid: [] };
  const grid = settingsGrid();
  const total = grid.flat().length;
  let done = 0;
  const t0 = performance.now();
  for (const row of grid) {
    for (const [j, setting] of row.entries()) {
      await applySetting(admin, setting);
      // Lexical and vector read only the context settings: asked once a context, at its first fusion.
      const modes = j === 0 ? MODES : ['hybrid'];
      for (const mode of modes) {
        const { perConversation } = await askAll(rpc, conversations, spaces, mode, `${mode} at ${settingName(setting)}`);
        runs[mode].push({ setting: mode === 'hybrid' ? setting : { context_share: setting.context_share, answer_share: setting.answer_share, context_reach: setting.context_reach }, perConversation });
      }
      done += 1;
      log(`  grid: ${done}/${total} settings (${round((performance.now() - t0) / 1000, 1)} s)`);
    }
  }
  await applySetting(admin, DEFAULT_SETTING);
  return runs;
}

/**
 * Hybrid's steps, each a part of the grid the setting is chosen from, so each thing that was
 * tuned shows what choosing it is worth on a conversation it was not chosen on: the defaults
 * alone (nothing chosen: cross-validated and fitted agree), then the weight, the context, both,
 * and both with the agreement rule.
 */
function hybridSteps(runs, names) {
  const isDefaultContext = (s) => s.context_share === DEFAULT_SETTING.context_share && s.answer_share === DEFAULT_SETTING.answer_share && s.context_reach === DEFAULT_SETTING.context_reach;
  const steps = [
    ['the defaults (scaled 0.7, context 0.35 / 1 / 2)', (s) => s.fusion === 'scaled' && s.lexical_weight === 0.7 && isDefaultContext(s)],
    ['lexical weight chosen (0.6-1), scaled', (s) => s.fusion === 'scaled' && isDefaultContext(s)],
    ['issue 37\'s defaults (scaled 0.7, context 0.45 / 1 / 2)', (s) => s.fusion === 'scaled' && s.lexical_weight === 0.7 && s.context_share === 0.45 && s.answer_share === 1 && s.context_reach === 2],
    ['context chosen (share, answer share, reach), scaled 0.7', (s) => s.fusion === 'scaled' && s.lexical_weight === 0.7],
    ['weight and context chosen, scaled', (s) => s.fusion === 'scaled'],
    ['agreement rule only, weight chosen (0.6-0.9), default context', (s) => s.fusion === 'agreement' && isDefaultContext(s)],
    ['everything chosen, either rule', () => true],
  ];
  return steps.map(([step, take]) => {
    const r = crossValidate(runs.filter((run) => take(run.setting)), names);
    return { step, cross_validated: r.cross_validated, fitted: r.fitted.recall_at_10, fitted_mean_of_conversations: r.fitted.mean_of_conversations, by_conversation: r.by_conversation, settings_tried: r.settings_tried };
  });
}

function reportSteps(steps) {
  printTable([['hybrid, chosen from', 'settings', 'cross-validated', 'fitted (pooled)', 'fitted (mean of 5)'], ...steps.map((s) => [s.step, s.settings_tried, s.cross_validated.toFixed(3), s.fitted.toFixed(3), s.fitted_mean_of_conversations.toFixed(3)])], 'Hybrid recall@10: what choosing each part is worth on a conversation it was not chosen on');
}

// ---------------------------------------------------------------- reporting

function report(results, plain, baseline, names, setup) {
  const rows = [['', 'recall@10', ...Object.values(CATEGORIES), ...names, 'p50 ms', 'p99 ms', 'issue (all 5)']];
  const row = (name, r, ref) => [
    name,
    r.recall_at_10.toFixed(3),
    ...Object.values(CATEGORIES).map((c) => r.by_category[c].recall_at_10?.toFixed(3) ?? '-'),
    ...names.map((n) => r.by_conversation[n].recall_at_10.toFixed(3)),
    r.p50_ms ?? '',
    r.p99_ms ?? '',
    ref === undefined ? '' : ref.toFixed(3),
  ];
  for (const m of MODES) rows.push(row(`gv.recall ${m}`, results[m], ISSUE_REFERENCE[m]));
  rows.push(row('plain BM25 (FTS5)', plain, ISSUE_REFERENCE.bm25));
  rows.push(row('baseline (NLTK stop words, next/previous)', baseline));
  const n = plain.by_category;
  const models = setup.local ? '' : `, embedding ${setup.models.embed}, re-ranker ${setup.models.rerank ?? 'none'}`;
  printTable(rows, `Evidence recall@10, LoCoMo dev half, gate at its default [recall] settings${models} (questions: ${plain.questions}; ${Object.values(CATEGORIES).map((c) => `${c} ${n[c].questions}`).join(', ')})`);
}

function reportCv(cv, baseline, names) {
  const rows = [['', 'cross-validated', ...names, 'fitted (pooled)', 'fitted (mean of 5)', 'fitted setting']];
  for (const m of MODES) {
    const r = cv[m];
    rows.push([m, r.cross_validated.toFixed(3), ...names.map((n) => r.by_conversation[n].recall_at_10.toFixed(3)), r.fitted.recall_at_10.toFixed(3), r.fitted.mean_of_conversations.toFixed(3), settingName({ ...DEFAULT_SETTING, ...r.fitted.setting })]);
  }
  rows.push(['baseline', baseline.mean_of_conversations.toFixed(3), ...names.map((n) => baseline.by_conversation[n].recall_at_10.toFixed(3)), baseline.recall_at_10.toFixed(3), baseline.mean_of_conversations.toFixed(3), 'nothing tuned']);
  printTable(rows, 'Evidence recall@10, leave one conversation out (each conversation measured at the setting best on the other four)');
  for (const m of MODES) for (const n of names) log(`  ${m} on ${n}: chose ${settingName({ ...DEFAULT_SETTING, ...cv[m].by_conversation[n].chosen })}`);
}

// ---------------------------------------------------------------- main

async function main(opts) {
  const t0 = performance.now();
  if (!existsSync(opts.data)) {
    throw new UsageError(`the LoCoMo data folder ${opts.data} does not exist; name it with --data DIR (it is not in this repository: see bench/README.md)`);
  }
  const setup = modelSetup(opts);
  if (opts.out) readResults(opts.out, setup);
  const names = opts.conversations.split(',').map((s) => s.trim()).filter(Boolean);
  const { conversations, odd } = readConversations(opts.data, names);
  const counts = {
    conversations: conversations.length,
    turns: conversations.reduce((n, c) => n + c.turns.length, 0),
    questions: conversations.reduce((n, c) => n + c.questions.length, 0),
    duplicate_turns: 0,
  };
  log(`data: ${opts.data} (${PROVENANCE})`);
  if (!setup.local) log(`models: embedding ${setup.models.embed}, re-ranker ${setup.models.rerank ?? 'none'} (${Object.entries(setup.endpoints).map(([what, e]) => `${what} at ${e.host}`).join(', ')})`);
  log(`${counts.turns} turns, ${counts.questions} questions of categories 1-4; evidence: ${JSON.stringify(odd)}`);

  const references = keywordReferences(conversations);
  const bm25 = summarize(references.plain, names);
  const baseline = summarize(references.baseline, names);
  baseline.mean_of_conversations = round(names.reduce((sum, _, c) => sum + pooledRecall(references.baseline, (i) => i === c), 0) / names.length, 3);
  log(`plain BM25 reference: recall@10 ${bm25.recall_at_10}; baseline (NLTK stop words, next and previous turn): ${baseline.recall_at_10}`);

  const gate = await startGate({ home: join(tempDir('gate-bench-locomo'), 'home'), removeHome: true, env: { ...ADMIN_PROMOTES_ENV, ...setup.env } });
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
    for (const mode of MODES) {
      const { perConversation, ms, reranked } = await askAll(rpc, conversations, spaces, mode);
      const p = percentiles(ms, [50, 99]);
      results[mode] = { ...summarize(perConversation, names), p50_ms: round(p[50], 2), p99_ms: round(p[99], 2), ...(setup.models.rerank === null ? {} : { reranked_questions: reranked }) };
      if (setup.models.rerank !== null) log(`  ${mode}: the re-ranker ordered ${reranked} of ${counts.questions} questions' hits`);
    }
    report(results, bm25, baseline, names, setup);
    let cv = null;
    if (opts.cv) {
      const runs = await runGrid(admin, rpc, conversations, spaces);
      cv = Object.fromEntries(MODES.map((m) => [m, crossValidate(runs[m], names)]));
      reportCv(cv, baseline, names);
      cv.hybrid_steps = hybridSteps(runs.hybrid, names);
      reportSteps(cv.hybrid_steps);
      if (opts['runs-out']) writeFileSync(opts['runs-out'], JSON.stringify({ names, runs }));
    }
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
        settings: DEFAULT_SETTING,
        bm25_reference: { ...bm25, how: "SQLite FTS5 in process, tokenize 'porter unicode61', one table a conversation, the question's terms quoted and ORed, ordered by bm25(), top 10" },
        baseline: {
          ...baseline,
          how: "issue 48's baseline: the same FTS5 table, bm25() defaults, the question's words not in NLTK's English stop-word list (179 words) quoted and ORed, each hit in bm25 order followed by the next and the previous turn of its session (each turn once) until 10",
          stop_words: "NLTK's English list (nltk.corpus.stopwords.words('english'), 179 words)",
        },
        ...(cv === null ? {} : { cross_validation: { how: 'leave one conversation out: each conversation measured at the [recall] setting best on the other four (questions pooled, ties to the earlier setting, defaults first); cross_validated is the five figures\' mean; fitted is the setting best on the whole half', grid: settingsGrid().flat(), modes: cv } }),
        models: setup.models,
        ...(setup.local ? {} : { endpoints: setup.endpoints }),
        issue_reference: ISSUE_REFERENCE,
        seconds: { total: totalS, ingest_and_promote: round(ingestS, 1), embedding_wait: round(embedS, 1) },
      };
      writeFileSync(opts.out, `${JSON.stringify(recordResults(readResults(opts.out, setup), out, setup), null, 2)}\n`);
      log(setup.local ? `wrote ${opts.out}` : `wrote ${opts.out} (runs_with_models["${modelSetKey(setup.models)}"])`);
    }
  } finally {
    client.close();
    admin.close();
    await gate.stop();
  }
}

/** Whether node was started on this file (through any symlink to it), not a test importing its option handling. */
function runAsScript() {
  try {
    return process.argv[1] !== undefined && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (runAsScript()) {
  main(parseOptions(process.argv.slice(2), OPTIONS, USAGE)).catch((error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`recall-quality-public: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
