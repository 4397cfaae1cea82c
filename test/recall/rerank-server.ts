import { JsonEndpointServer, type EndpointBehaviour, type EndpointRequest } from '../harness/json-endpoint-server.js';

export type RerankRequest = EndpointRequest<{ query: string; texts: string[]; truncate?: boolean }>;

/** What the server does with a request: answer it (status and body text) or hold it unanswered. */
export type RerankBehaviour = EndpointBehaviour<RerankRequest['body']>;

/** A real text-embeddings-inference style `/rerank` endpoint on 127.0.0.1 whose answers a test decides. */
export class RerankServer extends JsonEndpointServer<RerankRequest['body']> {
  constructor(behaviour: RerankBehaviour) {
    super('/rerank', behaviour);
  }

  /** The base URL `rerank.url` takes. */
  get url(): string {
    return this.origin;
  }
}

/** TEI's answer: every text's score, best first; `scoreOf` scores a text. */
export function teiAnswer(req: RerankRequest, scoreOf: (text: string) => number): string {
  const scored = req.body.texts.map((text, index) => ({ index, score: scoreOf(text) }));
  return JSON.stringify(scored.sort((a, b) => b.score - a.score));
}
