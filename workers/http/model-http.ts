/**
 * HTTP to a model server from a worker thread, with undici: a connect deadline, a total
 * deadline over the whole call (retries included), and undici's RetryAgent for 429 and
 * 503 (it honours Retry-After, capped) and for refused or reset connections. The answer
 * body is read up to a byte cap, so a hostile server cannot make the worker buffer
 * without bound. Failures are classified once here for every caller.
 */
import { Agent, RetryAgent, request } from 'undici';

/** The longest Retry-After honoured; a server asking for more is retried no sooner than this anyway. */
const RETRY_AFTER_CAP_MS = 60_000;

export interface HttpTarget {
  timeoutMs: number;
  connectTimeoutMs: number;
  maxRetries: number;
}

export type HttpFailureKind = 'timeout' | 'connect' | 'http' | 'too_large';

export class HttpCallError extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HttpCallError';
  }
}

const dispatchers = new Map<string, RetryAgent>();

function dispatcherFor(t: HttpTarget): RetryAgent {
  const key = `${t.connectTimeoutMs}|${t.maxRetries}|${t.timeoutMs}`;
  let d = dispatchers.get(key);
  if (!d) {
    d = new RetryAgent(new Agent({ connect: { timeout: t.connectTimeoutMs } }), {
      maxRetries: t.maxRetries,
      methods: ['POST', 'GET'],
      statusCodes: [429, 503],
      retryAfter: true,
      minTimeout: 250,
      maxTimeout: Math.min(RETRY_AFTER_CAP_MS, t.timeoutMs),
      errorCodes: ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'],
    });
    dispatchers.set(key, d);
  }
  return d;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * One call; resolves with the status and body text of whatever the server finally answered
 * (a 4xx or 5xx included, for the caller to judge), or throws HttpCallError.
 */
export async function callModelServer(
  t: HttpTarget,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; maxBytes: number },
): Promise<HttpAnswer> {
  let answer;
  try {
    answer = await request(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      dispatcher: dispatcherFor(t),
      signal: AbortSignal.timeout(t.timeoutMs),
    });
  } catch (error) {
    throw classify(error, t);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > init.maxBytes) {
        answer.body.destroy();
        throw new HttpCallError('too_large', `the answer is larger than ${init.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof HttpCallError ? error : classify(error, t);
  }
  return { status: answer.statusCode, text: Buffer.concat(chunks).toString('utf8') };
}

function classify(error: unknown, t: HttpTarget): HttpCallError {
  const e = error as { name?: string; code?: string; statusCode?: number; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new HttpCallError('timeout', `no answer within the ${t.timeoutMs} ms deadline`);
  }
  // RetryAgent gives up on a 429 or 503 it retried max_retries times with this error.
  if (e.code === 'UND_ERR_REQ_RETRY' && typeof e.statusCode === 'number') {
    return new HttpCallError('http', `HTTP ${e.statusCode} after ${t.maxRetries} retries`, e.statusCode);
  }
  if (e.code === 'UND_ERR_CONNECT_TIMEOUT') return new HttpCallError('connect', `no connection within ${t.connectTimeoutMs} ms`);
  return new HttpCallError('connect', `${e.code ?? e.name ?? 'error'}: ${String(e.message ?? error).slice(0, 200)}`);
}
