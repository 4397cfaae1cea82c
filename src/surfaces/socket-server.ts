import { createServer, type Server, type Socket } from 'node:net';
import type { Caller } from '../access/caller.js';
import { peerCredentials, processUid } from '../auth/peer-credentials.js';
import { framingError } from '../http-rpc/json-rpc-answer.js';
import { dispatch } from '../verbs/dispatch.js';
import { ErrorCode } from '../gate-error.js';
import { isArmed } from '../failpoints.js';
import type { InFlight } from './in-flight.js';
import { ByteLines, isBlankLine } from './byte-lines.js';
import { jsonRpcObject } from '../http-rpc/json-rpc-body.js';
import type { RequestObserver } from '../metrics/request-observer.js';
import { logSocketRequest, recallModeOf, servedVerb } from './request-log.js';
import type { House } from '../verbs/house.js';

export interface SocketSurfaceOptions {
  maxLineBytes: number;
  inFlight: InFlight;
  isDraining: () => boolean;
  /** Where each message answered is counted and timed (the gate's metrics). */
  observer?: RequestObserver;
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
/** Requests one connection may have in flight before the gate stops reading from it. */
const PIPELINE_DEPTH = 64;
const credentialsUnreadable = isArmed('socket-peer-credentials-unreadable');

/**
 * docs/protocol.md#credentials-and-roles, rule 3: the account running the service is admin on the socket, any
 * other local account is agent; the identity is `uid:<n>` from SO_PEERCRED.
 */
function socketCaller(socket: Socket): Caller {
  if (credentialsUnreadable) throw new Error('failpoint socket-peer-credentials-unreadable');
  const { uid } = peerCredentials(socket);
  return {
    identity: `uid:${uid}`,
    role: uid === processUid() ? 'admin' : 'agent',
    kind: 'local',
    scope: null,
    demo: false,
    surface: 'socket',
    uid,
  };
}

/**
 * Newline-delimited JSON-RPC 2.0, one line per answer. A client that pipelines gets its
 * answers in the order it asked, while the requests themselves run concurrently.
 */
export function createSocketSurface(house: House, options: SocketSurfaceOptions): Server {
  return createServer((socket) => {
    let caller: Caller;
    try {
      caller = socketCaller(socket);
    } catch (error) {
      house.log.error('socket peer credentials unavailable', error);
      socket.end(line(framingError(ErrorCode.identity, 'identity underivable')));
      return;
    }
    const lines = new ByteLines();
    // Requests on one connection run concurrently; answers are written in request order.
    let written = Promise.resolve();
    let open = 0;
    socket.on('data', (chunk: Buffer) => {
      for (const text of lines.push(chunk)) {
        if (isBlankLine(text)) continue;
        options.inFlight.enter();
        open += 1;
        if (open >= PIPELINE_DEPTH) socket.pause();
        const answered = answer(text).catch((error: unknown) => {
          house.log.error('socket request failed', error);
          return framingError(ErrorCode.internal, 'internal error');
        });
        written = written
          .then(() => answered)
          .then((response) => {
            if (response !== null) write(response);
          })
          .finally(() => {
            options.inFlight.leave();
            open -= 1;
            if (open < PIPELINE_DEPTH && socket.isPaused()) socket.resume();
          })
          .catch(() => undefined);
      }
      if (lines.pending > options.maxLineBytes) {
        socket.end(line(framingError(ErrorCode.tooLarge, 'request larger than the limit')));
        lines.clear();
      }
    });
    socket.on('error', () => socket.destroy());

    async function answer(text: Buffer): Promise<unknown> {
      if (text.length > options.maxLineBytes) return framingError(ErrorCode.tooLarge, 'request larger than the limit');
      if (options.isDraining()) return framingError(ErrorCode.quarantineFull, 'the gate is shutting down');
      const started = performance.now();
      // The same strict read as /rpc and /mcp: UTF-8, one object, no repeated key, bounded depth.
      const parsed = jsonRpcObject(text);
      if ('refusal' in parsed) {
        logSocketRequest(house.log, caller.identity, undefined, parsed.refusal.error?.code, started, options.observer);
        return parsed.refusal;
      }
      const response = await dispatch(house, caller, parsed.message);
      const code = response?.error?.code;
      logSocketRequest(house.log, caller.identity, servedVerb(parsed.message), code, started, options.observer, code === undefined ? recallModeOf(parsed.message) : undefined);
      return response;
    }

    function write(value: unknown): void {
      if (!socket.destroyed) socket.write(line(value));
    }
  });
}
