import type { IncomingMessage, ServerResponse } from 'node:http';
import { endAnswer } from './answer-before-body.js';
import { isReadBudgetRefusal } from '../gate-error.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  endAnswer(res, text);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...headers,
  });
  res.end(html);
}

/**
 * The Retry-After of a long read refused past its caller's budget (-32006 read_budget): its
 * retry_after_ms in whole seconds, rounded up; null for any other answer.
 */
export function readBudgetRetryAfter(error: { code: number; data?: Record<string, unknown> } | undefined): string | null {
  if (!isReadBudgetRefusal(error)) return null;
  const ms = Number(error!.data!['retry_after_ms']);
  return String(Math.max(1, Math.ceil((Number.isFinite(ms) ? ms : 1000) / 1000)));
}

/** 413, then the connection closes: the rest of an oversized body is never read (docs/protocol.md#routes: a client may see a reset). */
export function refuseTooLarge(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(413, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' });
  res.end(text);
  res.on('finish', () => res.socket?.destroy());
}

/** The declared Content-Length is over the limit: the body need not be read to refuse it. */
export function declaresTooMuch(req: IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers['content-length'] ?? NaN);
  return Number.isFinite(declared) && declared > limit;
}

/** Cookies of the request by name (the first of each). */
export function cookiesOf(req: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!jar.has(name)) jar.set(name, part.slice(eq + 1).trim());
  }
  return jar;
}
