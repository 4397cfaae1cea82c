import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodyBudget } from './body-budget.js';

/**
 * A body the gate will not read (any more): the answer's status, why, and whether none of
 * it was read yet (then Node discards it after the answer and the connection carries on).
 */
export class BodyRefused extends Error {
  constructor(
    readonly status: 408 | 429 | 503,
    message: string,
    readonly unread: boolean,
  ) {
    super(message);
  }
}

interface Terms {
  identity: string;
  budget: BodyBudget;
  /** When the whole body should have arrived, ms on the monotonic clock. */
  deadline: number;
  /** The latest it may arrive even while it keeps coming (see STILL_ARRIVING_BYTES). */
  lastDeadline: number;
  /** Bytes counted in the budget for this request, given back when its answer is sent. */
  taken: number;
}

/**
 * The terms of each admitted request, set by the HTTP surface once the caller is known and
 * counted; a route's handler only calls readBody, so no route can read a body the surface
 * has not admitted under the budget and a deadline.
 */
const admitted = new WeakMap<IncomingMessage, Terms>();

/**
 * Admits `req`'s body for `identity`: its bytes will count in `budget` from before they are
 * read until `res` closes, and the whole body must arrive within `timeoutMs` of now.
 */
export function admitBody(req: IncomingMessage, res: ServerResponse, identity: string, budget: BodyBudget, timeoutMs: number): void {
  const now = performance.now();
  const terms: Terms = { identity, budget, deadline: now + timeoutMs, lastDeadline: now + 3 * timeoutMs, taken: 0 };
  admitted.set(req, terms);
  res.once('close', () => {
    budget.give(identity, terms.taken);
    terms.taken = 0;
  });
}

/**
 * The first bytes of every body are not counted: `server.max_in_flight` already bounds them
 * (1,024 x 64 KiB = 64 MiB), and a small call is never refused because of others' large ones.
 */
export const UNCOUNTED_BODY_BYTES = 64 * 1024;

/**
 * Past its deadline a body that is still arriving at least this fast per second is given
 * another second at a time, up to three deadlines in all. The deadline is meant for a
 * sender that trickles; a gate whose own work kept it from reading for a while (several
 * large ingests at once) must not blame the sender, whose bytes are waiting in the socket.
 */
const STILL_ARRIVING_BYTES = 64 * 1024;

/** Bytes of a body of `size` that count in the budget. */
const counted = (size: number) => Math.max(0, size - UNCOUNTED_BODY_BYTES);

function take(terms: Terms, n: number, unread: boolean): void {
  if (n === 0) return;
  const verdict = terms.budget.take(terms.identity, n);
  if (verdict === 'identity') throw new BodyRefused(429, 'busy: this caller already has its share of request bytes in flight', unread);
  if (verdict === 'total') throw new BodyRefused(503, 'busy: request bodies in flight are at the byte budget', unread);
  terms.taken += n;
}

/**
 * Reads a body of at most `limit` bytes; resolves null when it grows past the limit. It
 * counts the bytes in the budget past the first UNCOUNTED_BODY_BYTES (a declared
 * Content-Length is taken whole before anything is read; a chunked body chunk by chunk) and
 * cuts a body that has not arrived by the deadline: both reject with BodyRefused.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const terms = admitted.get(req);
  if (terms === undefined) return Promise.reject(new Error('a request body was read before the HTTP surface admitted it'));
  const declared = Number(req.headers['content-length'] ?? NaN);
  const known = Number.isInteger(declared) && declared >= 0;
  if (known && declared > limit) return Promise.resolve(null);
  try {
    if (known) take(terms, counted(declared), true);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    // With the length known, one buffer of that size: no list of chunks and no second copy.
    const whole = known ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (error: unknown) => {
      settle();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > limit || (whole !== null && size + chunk.length > whole.length)) {
        settle();
        resolve(null);
        req.destroy();
        return;
      }
      if (!known) {
        try {
          take(terms, counted(size + chunk.length) - counted(size), false);
        } catch (error) {
          req.pause();
          return fail(error);
        }
      }
      if (whole !== null) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      settle();
      resolve(whole !== null ? whole.subarray(0, size) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => fail(error);
    // A request destroyed under the reader (its connection closed) ends no other way.
    const onClose = () => fail(new Error('the request closed before its body was read'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    let sizeAtLastLook = 0;
    // setImmediate first: after a long turn of the event loop the timer runs before the
    // socket's waiting bytes are read; the poll phase between reads them.
    const look = () =>
      setImmediate(() => {
        if (settled) return;
        if (size - sizeAtLastLook >= STILL_ARRIVING_BYTES && performance.now() < terms.lastDeadline) {
          sizeAtLastLook = size;
          timer = setTimeout(look, 1_000);
          return;
        }
        fail(new BodyRefused(408, 'request timeout: the body did not arrive in time', false));
      });
    timer = setTimeout(look, Math.max(0, terms.deadline - performance.now()));
  });
}

/**
 * The answer to a refused body. 429 and 503 say when to come back. A body refused before a
 * byte of it was read keeps the connection: closing it while the client still sends would
 * reset it, and the client might never read the answer. Part of a body read closes it (the
 * rest cannot be told from a next request), and so does a body cut for time; either way the
 * answer is written first and the rest of the body read and discarded, within a bound
 * (src/http-rpc/answer-before-body.ts), before the socket goes.
 */
export function refuseBody(res: ServerResponse, refusal: BodyRefused, retryAfterS: string, send: (res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) => void): void {
  const headers: Record<string, string> = refusal.unread ? {} : { connection: 'close' };
  if (refusal.status !== 408) headers['retry-after'] = retryAfterS;
  send(res, refusal.status, { error: refusal.message }, headers);
  if (refusal.status === 408) res.on('finish', () => res.socket?.destroy());
}
