import { Agent, request } from 'undici';
import { GateClientError } from './client-error.js';
import { parseStrictJson } from './strict-json.js';
import { provablyUnsent, type TransportLimits } from './transport-limits.js';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

/** https anywhere; plain http only to loopback and only when explicitly enabled (docs/protocol.md#client-transport-rules, rule 2). */
export function checkedUrl(base: string, path: string, allowPlainHttpLoopback = false): URL {
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    throw new GateClientError('config', `not a URL: ${base}`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol !== 'http:') throw new GateClientError('config', `unsupported scheme ${url.protocol}`);
  if (!LOOPBACK.test(url.hostname)) throw new GateClientError('config', `plain http is allowed to loopback only, not ${url.hostname}`);
  if (!allowPlainHttpLoopback) {
    throw new GateClientError('config', `plain http to ${url.host} needs allowPlainHttpLoopback: true in the client's options (a gate on this host serves plain http; https needs nothing)`);
  }
  return url;
}

export interface ExchangeInit {
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
}

export interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed strictly, when its content type is JSON; undefined otherwise. */
  json: unknown;
  text: string;
}

export const newAgent = (limits: TransportLimits) => new Agent({ connect: { timeout: limits.deadlineMs }, connections: 16 });

const isJson = (contentType: unknown) => typeof contentType === 'string' && /^application\/json\s*(;|$)/i.test(contentType.trim());

/**
 * One HTTP request under the client rules: one deadline over connect, send and every read;
 * the request and reply capped; a redirect is an invalid reply, never followed; no retry.
 */
export async function exchange(
  agent: Agent,
  limits: TransportLimits,
  url: URL,
  init: ExchangeInit,
  write: boolean,
): Promise<Exchanged> {
  if (init.body !== undefined) {
    const bytes = Buffer.byteLength(init.body);
    if (bytes > limits.maxRequestBytes) {
      throw new GateClientError('request_too_large', `the request is ${bytes} bytes; the limit is ${limits.maxRequestBytes}`);
    }
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.deadlineMs);
  try {
    return await exchangeWithin(deadline.signal, agent, limits, url, init, write);
  } finally {
    clearTimeout(timer);
  }
}

/** A reply body not read to its end: dropped, its late errors swallowed with it. */
function discard(body: { on(event: 'error', f: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function exchangeWithin(
  signal: AbortSignal,
  agent: Agent,
  limits: TransportLimits,
  url: URL,
  init: ExchangeInit,
  write: boolean,
): Promise<Exchanged> {
  const lost = (why: string, error?: unknown) =>
    new GateClientError(signal.aborted ? 'timeout' : 'transport', signal.aborted ? `no reply within ${limits.deadlineMs} ms` : why, {
      outcome_unknown: write && !provablyUnsent(error),
    });
  let res;
  try {
    res = await request(url, {
      method: init.method,
      dispatcher: agent,
      signal,
      headersTimeout: limits.deadlineMs,
      bodyTimeout: limits.deadlineMs,
      headers: init.headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
  } catch (error) {
    throw lost(`no connection to ${url.origin}: ${(error as Error).message}`, error);
  }
  const status = res.statusCode;
  if (status >= 300 && status < 400) {
    discard(res.body);
    throw new GateClientError('invalid_response', `the server answered a redirect (${status}); redirects are never followed`, { status, outcome_unknown: write });
  }
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > limits.maxResponseBytes) {
    discard(res.body);
    throw new GateClientError('invalid_response', `the reply declares ${declared} bytes; the limit is ${limits.maxResponseBytes}`, { status, outcome_unknown: write });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxResponseBytes) {
        discard(res.body);
        throw new GateClientError('invalid_response', `the reply is over ${limits.maxResponseBytes} bytes`, { status, outcome_unknown: write });
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof GateClientError) throw error;
    throw lost(`the reply was cut off: ${(error as Error).message}`, error);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let json: unknown;
  if (isJson(res.headers['content-type'])) {
    try {
      json = parseStrictJson(text);
    } catch (error) {
      throw new GateClientError('invalid_response', `the reply is not valid JSON: ${(error as Error).message}`, { status, outcome_unknown: write });
    }
  }
  return { status, headers: res.headers, json, text };
}
