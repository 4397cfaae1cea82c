import type { Clock } from '../clock.js';
import type { Log } from '../log.js';
import type { GateConfig } from '../config/keys.js';
import { Circuit } from '../circuit.js';

/**
 * An optional re-ranking stage: the best ranked hits of a recall and the query go to a
 * server speaking the text-embeddings-inference `/rerank` API (POST {url}/rerank with
 * `{query, texts, truncate}`, answered `[{index, score}, ...]`), a cross-encoder model the
 * operator runs, and the hits are shown in its order. Off unless `rerank.url` is set. It
 * never holds a recall up for long or makes one fail: a request is bounded by
 * `rerank.timeout_ms`, and a late, failed or malformed answer leaves the recall in its own
 * order; after `rerank.circuit_failures` of those in a row the circuit (the graders' own,
 * src/circuit.ts) opens and no request goes for `rerank.circuit_open_s`, then one
 * trial does.
 */
export class Reranker {
  private readonly circuit: Circuit;
  readonly topN: number;

  constructor(
    private readonly settings: GateConfig['rerank'],
    clock: Clock,
    private readonly log: Pick<Log, 'warn'>,
  ) {
    this.circuit = new Circuit(settings.circuit_failures, settings.circuit_open_s * 1000, clock);
    this.topN = settings.top_n;
  }

  /** The re-ranker's score of each text, by position; null when there is none to use (circuit open, failed, late, malformed). */
  async scores(query: string, texts: readonly string[]): Promise<Array<number | null> | null> {
    if (texts.length === 0) return [];
    if (this.circuit.admit() !== null) return null;
    try {
      const key = this.settings.api_key_env === '' ? undefined : process.env[this.settings.api_key_env];
      const response = await fetch(`${this.settings.url.replace(/\/+$/, '')}/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ query, texts, truncate: true }),
        // The whole exchange, body included, within the deadline.
        signal: AbortSignal.timeout(this.settings.timeout_ms),
      });
      if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
      const scores = scoresOf(await response.json(), texts.length);
      this.circuit.succeeded();
      return scores;
    } catch (error) {
      this.circuit.failed();
      this.log.warn('rerank: the recall keeps its own order', { reason: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }
}

/** `[{index, score}]` as scores by position (a text the answer left out: null); anything else is malformed. */
export function scoresOf(answer: unknown, count: number): Array<number | null> {
  if (!Array.isArray(answer)) throw new Error('the answer is not a list');
  const scores: Array<number | null> = Array(count).fill(null);
  for (const item of answer) {
    const index = (item as { index?: unknown })?.index;
    const score = (item as { score?: unknown })?.score;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) throw new Error(`an answer item names no text: ${JSON.stringify(item)}`);
    if (typeof score !== 'number' || !Number.isFinite(score)) throw new Error(`an answer item has no score: ${JSON.stringify(item)}`);
    if (scores[index] !== null) throw new Error(`text ${index} is scored twice`);
    scores[index] = score;
  }
  return scores;
}
