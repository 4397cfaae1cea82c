import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../bench/lib.js';
import { LOCAL_EMBED, OPTIONS, UsageError, modelSetKey, modelSetup, recordResults } from '../../bench/recall-quality-public.js';
import { JsonEndpointServer } from '../harness/json-endpoint-server.js';
import { EmbeddingsServer, goodAnswer, type EmbeddingsRequest } from '../recall/embeddings-server.js';

/**
 * The operator's model path of bench/recall-quality-public.js (issue 48 item 4): its options
 * become the gate's [embed] and [rerank] configuration, a run with them reaches the endpoints
 * and is recorded under its model set beside the local run, never over it, with no key and no
 * path of this machine. No LoCoMo: the bench runs on a conversation of a few turns written here.
 */

const BENCH = join(REPO_ROOT, 'bench/recall-quality-public.js');
const DIMS = 16;
const EMBED_KEY = 'sk-embed-test-only-not-a-real-key';
const RERANK_KEY = 'rr-test-only-not-a-real-key';
/** The options as parseOptions gives them when none is named. */
const defaults = Object.fromEntries(Object.entries(OPTIONS).map(([name, spec]) => [name, spec.default])) as Record<string, unknown>;

describe('the options as the gate configuration', () => {
  it('without endpoints, gives the gate nothing and names the local defaults', () => {
    const setup = modelSetup(defaults, {});
    expect(setup).toEqual({ env: {}, models: { embed: LOCAL_EMBED, rerank: null }, endpoints: {}, local: true });
    expect(LOCAL_EMBED).toBe('local hashed n-grams');
  });

  it('turns the embedding and re-ranker options into GATE_EMBED_* and GATE_RERANK_* and records hosts, models and key names', () => {
    const opts = {
      ...defaults,
      'embed-url': 'https://embed.example.com:8443/v1',
      'embed-model': 'text-embedding-3-small',
      'embed-key-env': 'MY_EMBED_KEY',
      'embed-dimensions': 256,
      'rerank-url': 'http://10.0.0.5:8081/',
      'rerank-model': 'BAAI/bge-reranker-base',
      'rerank-key-env': 'MY_RERANK_KEY',
    };
    const setup = modelSetup(opts, { MY_EMBED_KEY: EMBED_KEY, MY_RERANK_KEY: RERANK_KEY });
    expect(setup.env).toEqual({
      GATE_EMBED_BACKEND: 'openai',
      GATE_EMBED_URL: 'https://embed.example.com:8443/v1',
      GATE_EMBED_MODEL: 'text-embedding-3-small',
      GATE_EMBED_DIMENSIONS: '256',
      GATE_EMBED_API_KEY_ENV: 'MY_EMBED_KEY',
      GATE_RERANK_URL: 'http://10.0.0.5:8081/',
      GATE_RERANK_API_KEY_ENV: 'MY_RERANK_KEY',
    });
    expect(setup.models).toEqual({ embed: 'text-embedding-3-small', rerank: 'BAAI/bge-reranker-base' });
    expect(setup.endpoints).toEqual({
      embed: { model: 'text-embedding-3-small', host: 'embed.example.com:8443', dimensions: 256, api_key_env: 'MY_EMBED_KEY' },
      rerank: { model: 'BAAI/bge-reranker-base', host: '10.0.0.5:8081', api_key_env: 'MY_RERANK_KEY' },
    });
    expect(setup.local).toBe(false);
    expect(JSON.stringify(setup)).not.toContain(EMBED_KEY);
    expect(JSON.stringify(setup)).not.toContain(RERANK_KEY);
  });

  it('takes one model alone, sending no key when none is named', () => {
    const rerankOnly = modelSetup({ ...defaults, 'rerank-url': 'http://127.0.0.1:8081', 'rerank-model': 'ms-marco-MiniLM-L-6-v2' }, {});
    expect(rerankOnly.env).toEqual({ GATE_RERANK_URL: 'http://127.0.0.1:8081' });
    expect(rerankOnly.models).toEqual({ embed: LOCAL_EMBED, rerank: 'ms-marco-MiniLM-L-6-v2' });
    expect(modelSetKey(rerankOnly.models)).toBe('embed=local hashed n-grams;rerank=ms-marco-MiniLM-L-6-v2');
    const embedOnly = modelSetup({ ...defaults, 'embed-url': 'http://127.0.0.1:8080/v1', 'embed-model': 'bge-small-en-v1.5' }, {});
    expect(embedOnly.env).toEqual({ GATE_EMBED_BACKEND: 'openai', GATE_EMBED_URL: 'http://127.0.0.1:8080/v1', GATE_EMBED_MODEL: 'bge-small-en-v1.5', GATE_EMBED_DIMENSIONS: '512' });
    expect(embedOnly.endpoints).toEqual({ embed: { model: 'bge-small-en-v1.5', host: '127.0.0.1:8080', dimensions: 512, api_key_env: null } });
    expect(modelSetKey(embedOnly.models)).toBe('embed=bge-small-en-v1.5;rerank=none');
  });

  it('refuses what would measure something other than what it records', () => {
    const refused = (opts: Record<string, unknown>, env: Record<string, string>, message: RegExp) => {
      expect(() => modelSetup({ ...defaults, ...opts }, env)).toThrow(UsageError);
      expect(() => modelSetup({ ...defaults, ...opts }, env)).toThrow(message);
    };
    refused({ 'embed-url': 'http://127.0.0.1:1/v1' }, {}, /--embed-url and --embed-model go together/);
    refused({ 'embed-model': 'm' }, {}, /--embed-url and --embed-model go together/);
    refused({ 'rerank-url': 'http://127.0.0.1:1' }, {}, /--rerank-url and --rerank-model go together/);
    refused({ 'rerank-model': 'm' }, {}, /--rerank-url and --rerank-model go together/);
    refused({ 'embed-url': 'not a url', 'embed-model': 'm' }, {}, /--embed-url not a url is not a URL/);
    refused({ 'rerank-url': 'ftp://127.0.0.1/', 'rerank-model': 'm' }, {}, /--rerank-url must be an http or https URL/);
    refused({ 'embed-url': 'http://127.0.0.1:1/v1', 'embed-model': 'm', 'embed-key-env': 'UNSET_KEY' }, {}, /names UNSET_KEY, which is not set/);
    refused({ 'rerank-url': 'http://127.0.0.1:1', 'rerank-model': 'm', 'rerank-key-env': 'sk-a-key-itself' }, { 'sk-a-key-itself': 'x' }, /takes the NAME of an environment variable/);
    refused({ 'embed-url': 'http://127.0.0.1:1/v1', 'embed-model': 'm', 'embed-dimensions': 1.5 }, {}, /--embed-dimensions must be a whole number/);
    refused({}, { GATE_RERANK_URL: 'http://127.0.0.1:1' }, /this environment sets GATE_RERANK_URL/);
    refused({}, { GATE_EMBED_BACKEND: 'openai', GATE_EMBED_MODEL: 'm' }, /this environment sets GATE_EMBED_BACKEND, GATE_EMBED_MODEL/);
    // The local backend named in the environment is the default itself.
    expect(modelSetup(defaults, { GATE_EMBED_BACKEND: 'local' }).local).toBe(true);
  });
});

describe('the record', () => {
  const local = { modes: { hybrid: { recall_at_10: 0.759 } }, models: { embed: LOCAL_EMBED, rerank: null } };
  const withModels = modelSetup({ ...defaults, 'embed-url': 'http://127.0.0.1:8080/v1', 'embed-model': 'e5' }, {});
  const modelRun = { modes: { hybrid: { recall_at_10: 0.8 } }, models: withModels.models };

  it('puts a run with models under its model set, leaving the local figures and other sets as they were', () => {
    const other = { modes: { hybrid: { recall_at_10: 0.7 } } };
    const existing = { ...local, runs_with_models: { 'embed=other;rerank=none': other } };
    expect(recordResults(existing, modelRun, withModels)).toEqual({ ...local, runs_with_models: { 'embed=other;rerank=none': other, 'embed=e5;rerank=none': modelRun } });
    expect(recordResults(null, modelRun, withModels)).toEqual({ runs_with_models: { 'embed=e5;rerank=none': modelRun } });
    // The same set measured again replaces its own figures only.
    const again = { ...modelRun, modes: { hybrid: { recall_at_10: 0.81 } } };
    expect(recordResults(recordResults(existing, modelRun, withModels), again, withModels).runs_with_models['embed=e5;rerank=none']).toEqual(again);
  });

  it('writes the local run at the top level, keeping the runs with models the file held', () => {
    const setup = modelSetup(defaults, {});
    expect(recordResults({ modes: { hybrid: { recall_at_10: 0.5 } } }, local, setup)).toEqual(local);
    const held = { 'embed=e5;rerank=none': modelRun };
    expect(recordResults({ modes: {}, runs_with_models: held }, local, setup)).toEqual({ ...local, runs_with_models: held });
  });
});

/** A LoCoMo-shaped conversation of a few turns written here (not LoCoMo data), and questions with their evidence. */
const CONVERSATION = {
  speaker_a: 'Ana',
  speaker_b: 'Bo',
  session_1_date_time: '1:00 pm on 3 May, 2023',
  session_1: [
    { speaker: 'Ana', dia_id: 'D1:1', text: 'I planted tomatoes and basil in the garden this weekend.' },
    { speaker: 'Bo', dia_id: 'D1:2', text: 'Nice! I started learning the cello last month.' },
    { speaker: 'Ana', dia_id: 'D1:3', text: 'My sister moved to Lisbon for a new job at a bakery.' },
    { speaker: 'Bo', dia_id: 'D1:4', text: 'I adopted a grey cat named Pepper from the shelter.' },
  ],
  session_2_date_time: '9:30 am on 20 May, 2023',
  session_2: [
    { speaker: 'Ana', dia_id: 'D2:1', text: 'The tomatoes are already flowering, the basil less so.' },
    { speaker: 'Bo', dia_id: 'D2:2', text: 'Pepper knocked my cello bow off the shelf twice.' },
    { speaker: 'Ana', dia_id: 'D2:3', text: 'We are running a half marathon in Porto in October.' },
  ],
  qa: [
    { question: 'What did Ana plant in the garden?', answer: 'tomatoes and basil', evidence: ['D1:1'], category: 4 },
    { question: 'Where did Ana\'s sister move?', answer: 'Lisbon', evidence: ['D1:3'], category: 4 },
    { question: 'What is the name of the cat Bo adopted?', answer: 'Pepper', evidence: ['D1:4'], category: 4 },
    { question: 'Which instrument does Bo play?', answer: 'cello', evidence: ['D1:2', 'D2:2'], category: 1 },
    { question: 'When is the half marathon?', answer: 'October', evidence: ['D2:3'], category: 2 },
  ],
};
const QUESTIONS = CONVERSATION.qa.length;

type RerankRequest = { query: string; texts: string[]; truncate: boolean };

/** Runs the bench as a child (awaited: the endpoints answer from this process) and answers its exit code and output. */
function runBench(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BENCH, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a run of the bench', () => {
  let dir: string;
  let embeddings: EmbeddingsServer;
  let reranker: JsonEndpointServer<RerankRequest>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-bench-models-'));
    writeFileSync(join(dir, '1.json'), JSON.stringify(CONVERSATION));
    embeddings = await new EmbeddingsServer((req: EmbeddingsRequest) => ({ status: 200, body: goodAnswer(req, DIMS) })).start();
    // TEI's answer: every text scored, here by the share of the query's words it holds.
    reranker = await new JsonEndpointServer<RerankRequest>('/rerank', (req) => {
      const words = new Set(req.body.query.toLowerCase().match(/\p{L}+/gu) ?? []);
      const scores = req.body.texts.map((text, index) => ({ index, score: (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => words.has(w)).length / (words.size || 1) }));
      return { status: 200, body: JSON.stringify(scores.sort((a, b) => b.score - a.score)) };
    }).start();
  });
  afterAll(async () => {
    await embeddings?.stop();
    await reranker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('with the models, reaches both endpoints and records the run under its model set beside the local figures', async () => {
    const out = join(dir, 'with-models.json');
    const localRun = { modes: { hybrid: { recall_at_10: 0.759 } }, models: { embed: LOCAL_EMBED, rerank: null } };
    writeFileSync(out, JSON.stringify(localRun));
    const run = await runBench(
      ['--data', dir, '--conversations', '1', '--out', out, '--embed-timeout', '60',
        '--embed-url', embeddings.url, '--embed-model', 'test-embed', '--embed-key-env', 'BENCH_TEST_EMBED_KEY', '--embed-dimensions', String(DIMS),
        '--rerank-url', reranker.origin, '--rerank-model', 'test-rerank', '--rerank-key-env', 'BENCH_TEST_RERANK_KEY'],
      { BENCH_TEST_EMBED_KEY: EMBED_KEY, BENCH_TEST_RERANK_KEY: RERANK_KEY },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    // The gate the bench started embedded through the endpoint, with the model, length and key named.
    expect(embeddings.requests.length).toBeGreaterThan(0);
    for (const r of embeddings.requests) {
      expect(r.body.model).toBe('test-embed');
      expect(r.body.dimensions).toBe(DIMS);
      expect(r.authorization).toBe(`Bearer ${EMBED_KEY}`);
    }
    const embedded = new Set(embeddings.requests.flatMap((r) => r.body.input));
    for (const turn of CONVERSATION.session_1) expect([...embedded].some((text) => text.includes(turn.text))).toBe(true);
    // And asked the re-ranker, with its key, about the questions.
    expect(reranker.requests.length).toBeGreaterThanOrEqual(QUESTIONS);
    for (const r of reranker.requests) expect(r.authorization).toBe(`Bearer ${RERANK_KEY}`);
    for (const q of CONVERSATION.qa) expect(reranker.requests.some((r) => r.body.query === q.question)).toBe(true);

    const text = readFileSync(out, 'utf8');
    const results = JSON.parse(text);
    // The local figures stay where they were; the run with models is under its set.
    expect(results.modes).toEqual(localRun.modes);
    expect(results.models).toEqual(localRun.models);
    expect(Object.keys(results.runs_with_models)).toEqual(['embed=test-embed;rerank=test-rerank']);
    const recorded = results.runs_with_models['embed=test-embed;rerank=test-rerank'];
    expect(recorded.models).toEqual({ embed: 'test-embed', rerank: 'test-rerank' });
    const host = new URL(embeddings.origin).host;
    expect(recorded.endpoints).toEqual({
      embed: { model: 'test-embed', host, dimensions: DIMS, api_key_env: 'BENCH_TEST_EMBED_KEY' },
      rerank: { model: 'test-rerank', host: new URL(reranker.origin).host, api_key_env: 'BENCH_TEST_RERANK_KEY' },
    });
    expect(recorded.counts).toMatchObject({ conversations: 1, turns: 7, questions: QUESTIONS });
    for (const mode of ['lexical', 'vector', 'hybrid']) {
      expect(recorded.modes[mode].questions).toBe(QUESTIONS);
      expect(recorded.modes[mode].recall_at_10).toBeGreaterThan(0);
      // Every question's hits were put in the re-ranker's order.
      expect(recorded.modes[mode].reranked_questions).toBe(QUESTIONS);
    }
    // No key, and no path of this machine.
    expect(text).not.toContain(EMBED_KEY);
    expect(text).not.toContain(RERANK_KEY);
    expect(text).not.toContain(dir);
    expect(text).not.toContain(tmpdir());
    expect(recorded.source.data).toBe(`outside the checkout: ${dir.split('/').pop()}`);
    expect(run.stdout).toContain('models: embedding test-embed, re-ranker test-rerank');
  });

  it('without them, the local defaults serve: no endpoint is asked and the results name the local embedder', async () => {
    const out = join(dir, 'local.json');
    const held = { 'embed=test-embed;rerank=none': { modes: { hybrid: { recall_at_10: 0.5 } } } };
    writeFileSync(out, JSON.stringify({ modes: { hybrid: { recall_at_10: 0.1 } }, runs_with_models: held }));
    const asked = { embed: embeddings.requests.length, rerank: reranker.requests.length };
    const run = await runBench(['--data', dir, '--conversations', '1', '--out', out, '--embed-timeout', '60'], {});
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect({ embed: embeddings.requests.length, rerank: reranker.requests.length }).toEqual(asked);
    const results = JSON.parse(readFileSync(out, 'utf8'));
    expect(results.models).toEqual({ embed: 'local hashed n-grams', rerank: null });
    expect(results.endpoints).toBeUndefined();
    expect(results.modes.hybrid.questions).toBe(QUESTIONS);
    expect(results.modes.hybrid.recall_at_10).toBeGreaterThan(0);
    expect(results.modes.hybrid.reranked_questions).toBeUndefined();
    expect(results.runs_with_models).toEqual(held);
    expect(run.stdout).not.toContain('models:');
  });
});
