import { createServer, type Server, type Socket } from 'node:net';
import type { Gate } from '../gate.js';
import type { Caller } from '../access/caller.js';
import { peerCredentials, processUid } from '../auth/peer-credentials.js';
import { dispatch } from '../verbs/dispatch.js';
import type { InFlight } from './in-flight.js';

export interface SocketSurfaceOptions {
  maxLineBytes: number;
  inFlight: InFlight;
  isDraining: () => boolean;
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

/**
 * Spec 1 Authentication 3: the account running the service is admin on the socket, any
 * other local account is agent; the identity is `uid:<n>` from SO_PEERCRED.
 */
function socketCaller(socket: Socket): Caller {
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
 * Newline-delimited JSON-RPC 2.0. Messages on one connection are answered in order, one
 * line each, so a client that pipelines reads its answers back in the order it asked.
 */
export function createSocketSurface(gate: Gate, options: SocketSurfaceOptions): Server {
  return createServer((socket) => {
    let caller: Caller;
    try {
      caller = socketCaller(socket);
    } catch (error) {
      gate.log.error('socket peer credentials unavailable', error);
      socket.end(line({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'identity underivable' } }));
      return;
    }
    let buffered = '';
    let chain = Promise.resolve();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (text.trim() === '') continue;
        options.inFlight.enter();
        chain = chain
          .then(() => answer(text))
          .catch((error: unknown) => gate.log.error('socket request failed', error))
          .finally(() => options.inFlight.leave());
      }
      if (Buffer.byteLength(buffered) > options.maxLineBytes) {
        socket.end(line(rpcError(-32001, 'request larger than the limit')));
        buffered = '';
      }
    });
    socket.on('error', () => socket.destroy());

    async function answer(text: string): Promise<void> {
      if (Buffer.byteLength(text) > options.maxLineBytes) return write(rpcError(-32001, 'request larger than the limit'));
      if (options.isDraining()) return write(rpcError(-32006, 'the gate is shutting down'));
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return write(rpcError(-32700, 'the line is not JSON'));
      }
      const response = await dispatch(gate, caller, message);
      if (response !== null) write(response);
    }

    function write(value: unknown): void {
      if (!socket.destroyed) socket.write(line(value));
    }
  });
}
