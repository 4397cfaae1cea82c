/**
 * One row's text classified by a text-embeddings-inference server: POST {url}/predict with
 * `{inputs: [[part], [part], ...], truncate: true}` (a batch: TEI reads a bare list of two
 * strings as one pair), answered with each part's predictions `[[{label, score}, ...], ...]`
 * (a classifier's every label, softmax scores). The answer is model output, so it is read
 * here in the worker and checked with zod; anything else is a failure, never a verdict.
 */
import { z } from 'zod';
import { HttpCallError, callModelServer } from '../http/model-http.js';
import { segments, type Segment } from './segments.js';
import type { DetectFailure, DetectOutcome, DetectTarget, DetectTop } from './detect-task.js';

const prediction = z.object({ label: z.string(), score: z.number().finite() });
const batchAnswer = z.array(z.array(prediction));
const singleAnswer = z.array(prediction);

class Failed extends Error {
  constructor(
    readonly failure: DetectFailure,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(detail);
  }
}

/** The predictions of each input, in order, or a Failed saying why the answer is not one. */
export function parsePredictions(text: string, inputs: number): Array<Array<{ label: string; score: number }>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Failed('malformed', 'the detector answered something that is not JSON');
  }
  const batch = batchAnswer.safeParse(json);
  if (batch.success) {
    if (batch.data.length !== inputs) throw new Failed('malformed', `the detector answered ${batch.data.length} predictions for ${inputs} inputs`);
    return batch.data;
  }
  // A server that answers one input unbatched.
  const single = singleAnswer.safeParse(json);
  if (single.success && inputs === 1) return [single.data];
  throw new Failed('malformed', 'not a /predict answer: expected a list of {label, score} lists');
}

/**
 * The part's attack score: the highest score of a label the operator named as an attack. An
 * answer that names none of those labels is not a clean verdict: the classifier is not the
 * one the settings describe, and reading it as clean would let every attack through.
 */
export function attackScore(predictions: ReadonlyArray<{ label: string; score: number }>, attackLabels: ReadonlySet<string>): { label: string; score: number } {
  let best: { label: string; score: number } | null = null;
  for (const p of predictions) {
    if (!attackLabels.has(p.label.toUpperCase())) continue;
    if (best === null || p.score > best.score) best = p;
  }
  if (best === null) {
    const named = [...new Set(predictions.map((p) => p.label))].slice(0, 10).join(', ');
    throw new Failed('labels', `the classifier answered the labels [${named}], none of detector.attack_labels (${[...attackLabels].join(', ')})`);
  }
  return best;
}

function headersOf(t: DetectTarget): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (t.apiKeyEnv === '') return headers;
  const key = process.env[t.apiKeyEnv];
  if (!key) throw new Failed('credential', `${t.apiKeyEnv} is not set in the gate's environment`);
  headers['authorization'] = `Bearer ${key}`;
  return headers;
}

/** One request for some parts of the text; their predictions in order. */
async function predict(t: DetectTarget, headers: Record<string, string>, texts: string[]) {
  // A label and its score take well under 200 bytes; an answer far larger is not a classifier's.
  const maxBytes = 65536 + texts.length * 8192;
  let answer;
  try {
    answer = await callModelServer(t, `${t.url.replace(/\/+$/, '')}/predict`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ inputs: texts.map((s) => [s]), truncate: true }),
      maxBytes,
    });
  } catch (error) {
    if (error instanceof HttpCallError) throw new Failed(error.kind, error.message, error.status);
    throw error;
  }
  if (answer.status === 401 || answer.status === 403) throw new Failed('credential', `HTTP ${answer.status}: the detector refused the credential`, answer.status);
  if (answer.status < 200 || answer.status > 299) throw new Failed('http', `HTTP ${answer.status}`, answer.status);
  return parsePredictions(answer.text, texts.length);
}

/** Classifies every part of `text`, `batchMax` parts a request, one request at a time; answers the highest attack score and where. */
export async function detectText(t: DetectTarget, text: string): Promise<DetectOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const parts: Segment[] = segments(text, t.chunkChars);
    const labels = new Set(t.attackLabels.map((l) => l.toUpperCase()));
    const headers = parts.length === 0 ? {} : headersOf(t);
    let top: DetectTop | null = null;
    let requests = 0;
    for (let i = 0; i < parts.length; i += t.batchMax) {
      const batch = parts.slice(i, i + t.batchMax);
      const predictions = await predict(t, headers, batch.map((p) => text.slice(p.start, p.end)));
      requests += 1;
      predictions.forEach((ps, j) => {
        const scored = attackScore(ps, labels);
        if (top === null || scored.score > top.score) top = { ...scored, start: batch[j]!.start, end: batch[j]!.end };
      });
    }
    return { ok: true, top, parts: parts.length, requests, ms: ms() };
  } catch (error) {
    if (error instanceof Failed) return { ok: false, failure: error.failure, detail: error.detail, ms: ms(), ...(error.status === undefined ? {} : { status: error.status }) };
    return { ok: false, failure: 'connect', detail: String(error instanceof Error ? error.message : error).slice(0, 200), ms: ms() };
  }
}
