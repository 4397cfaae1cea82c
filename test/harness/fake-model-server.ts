import { afterAll, beforeAll } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A model server on 127.0.0.1 whose answers a test decides: it speaks the OpenAI
 * chat-completions dialect (POST /v1/chat/completions, GET /v1/models) and the Anthropic
 * messages dialect (POST /v1/messages, GET /v1/models). What it answers is chosen by a
 * marker in the claim text the gate sends, so concurrent calls stay deterministic:
 *
 *   (none)            approve, score 85
 *   [[reject]]        reject, score 20
 *   [[critical-no]]   the critical stance rejects, the others approve
 *   [[malformed]]     content that is not JSON
 *   [[badshape]]      JSON with a score of 150
 *   [[lowapprove]]    approve with a score of 10 (incoherent)
 *   [[refuse]]        the model refuses
 *   [[slow]]          answered after `slowMs` (past a short deadline)
 *   [[429]]           429 with Retry-After: 1 the first time, then approve
 *   [[500]]           HTTP 500
 *   [[401]]           HTTP 401 (the backend refuses the credential)
 *
 * A marker written `[[500@positive]]` applies to that stance's calls only.
 */
export interface ModelRequest {
  at: number;
  path: string;
  authorization: string | undefined;
  apiKey: string | undefined;
  body: any;
  /** The user message the gate sent (the facts and the masked claim text). */
  prompt: string;
  stance: string;
}

export class FakeModelServer {
  readonly requests: ModelRequest[] = [];
  private server!: Server;
  private readonly seen429 = new Set<string>();
  private readonly open = new Set<ServerResponse>();
  url = '';
  /** Tokens each answer says it used. */
  usageTokens = 100;
  slowMs = 6_000;
  /** Answer GET /v1/models with 401 (a refused credential). */
  refuseCredential = false;
  /** When set, every model call is answered with this HTTP status (a backend that is down). */
  failAll: number | null = null;
  /** Answer every model call in prose, as a server that ignores the structured-output request does. */
  ignoreSchema = false;

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Base URL for an openai backend (the gate posts to {url}/chat/completions). */
  get openaiUrl(): string {
    return `${this.url}/v1`;
  }

  modelCalls(): ModelRequest[] {
    return this.requests.filter((r) => r.path !== '/v1/models');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (req.method === 'GET' && path === '/v1/models') {
        this.requests.push({ at: Date.now(), path, authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string | undefined, body: null, prompt: '', stance: '' });
        if (this.refuseCredential) return this.send(res, 401, { error: { message: 'bad key' } });
        return this.send(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] });
      }
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/messages')) return this.send(res, 404, { error: 'no route' });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const anthropic = path === '/v1/messages';
      const system: string = anthropic ? body.system : body.messages[0].content;
      const prompt: string = anthropic ? body.messages[0].content : body.messages[1].content;
      const stance = /first-pass reviewer/.test(system) ? 'positive' : /critical reviewer/.test(system) ? 'critical' : 'other';
      this.requests.push({ at: Date.now(), path, authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string | undefined, body, prompt, stance });
      this.answer(res, anthropic, prompt, stance);
    });
  }

  private answer(res: ServerResponse, anthropic: boolean, prompt: string, stance: string): void {
    if (this.failAll !== null) return this.send(res, this.failAll, { error: { message: 'down' } });
    if (this.ignoreSchema) return this.reply(res, anthropic, 'Looks fine to me: approve.');
    const has = (marker: string) => prompt.includes(`[[${marker}]]`) || prompt.includes(`[[${marker}@${stance}]]`);
    if (has('500')) return this.send(res, 500, { error: { message: 'internal' } });
    if (has('401')) return this.send(res, 401, { error: { message: 'invalid api key' } });
    if (has('429') && !this.seen429.has(prompt + stance)) {
      this.seen429.add(prompt + stance);
      return this.send(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': '1' });
    }
    if (has('slow')) {
      this.open.add(res);
      setTimeout(() => {
        this.open.delete(res);
        if (!res.destroyed) this.reply(res, anthropic, verdict('approve', 85));
      }, this.slowMs).unref();
      return;
    }
    if (has('refuse')) {
      return anthropic
        ? this.send(res, 200, { model: 'fake-model', stop_reason: 'refusal', content: [], usage: { input_tokens: 10, output_tokens: 0 } })
        : this.send(res, 200, { model: 'fake-model', choices: [{ finish_reason: 'stop', message: { content: null, refusal: 'I will not grade this.' } }], usage: { total_tokens: 10 } });
    }
    if (has('malformed')) return this.reply(res, anthropic, 'this is not {json');
    if (has('badshape')) return this.reply(res, anthropic, verdict('approve', 150));
    if (has('lowapprove')) return this.reply(res, anthropic, verdict('approve', 10));
    if (has('reject') || (has('critical-no') && stance === 'critical')) return this.reply(res, anthropic, verdict('reject', 20));
    return this.reply(res, anthropic, verdict('approve', 85));
  }

  /** A 200 carrying `content` as the model's output in the backend's dialect. */
  private reply(res: ServerResponse, anthropic: boolean, content: string | Record<string, unknown>): void {
    if (anthropic) {
      this.send(res, 200, {
        model: 'fake-model',
        stop_reason: 'tool_use',
        content: [{ type: 'tool_use', id: 'tu_1', name: 'record_verdict', input: content }],
        usage: { input_tokens: this.usageTokens - 20, output_tokens: 20 },
      });
      return;
    }
    this.send(res, 200, {
      model: 'fake-model',
      choices: [{ finish_reason: 'stop', message: { content: typeof content === 'string' ? content : JSON.stringify(content), refusal: null } }],
      usage: { total_tokens: this.usageTokens },
    });
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }

  async stop(): Promise<void> {
    // Never started (its beforeAll failed before): nothing to stop.
    if (this.server === undefined) return;
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function verdict(decision: 'approve' | 'reject', score: number) {
  return {
    decision,
    score,
    rationale: decision === 'approve' ? 'specific, sourced and new' : 'not supported by its source',
    evidence: ['names its source'],
    counterevidence: decision === 'approve' ? [] : ['contradicts the cited row'],
  };
}

/** Environment for a gate whose stances are answered by this server (openai dialect unless said). */
export function modelEnv(server: FakeModelServer, extra: { kind?: 'openai' | 'anthropic'; backend?: Record<string, unknown>; env?: Record<string, string> } = {}): Record<string, string> {
  const kind = extra.kind ?? 'openai';
  const backend = {
    kind,
    url: kind === 'openai' ? server.openaiUrl : server.url,
    model: 'fake-model',
    api_key_env: 'GATE_TEST_MODEL_KEY',
    timeout_ms: 2_500,
    connect_timeout_ms: 1_000,
    max_retries: 2,
    max_tokens: 64,
    ...(extra.backend ?? {}),
  };
  return {
    GATE_TEST_MODEL_KEY: 'sk-test-only-not-a-real-key',
    GATE_REVIEW_BACKENDS: JSON.stringify({ fake: backend }),
    GATE_REVIEW_STANCES: JSON.stringify({ positive: 'fake', critical: 'fake' }),
    GATE_REVIEW_SECOND_OPINION: 'fake',
    ...(extra.env ?? {}),
  };
}

/**
 * A FakeModelServer for the enclosing file or describe: started in a beforeAll registered
 * here (so before a later `useGate` whose `env` reads its URL) and stopped in an afterAll.
 */
export function useModelServer(): FakeModelServer {
  const server = new FakeModelServer();
  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });
  return server;
}
