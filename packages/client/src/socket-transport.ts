import { connect, type Socket } from 'node:net';
import { GateClientError } from './client-error.js';
import { parseStrictJson } from './strict-json.js';
import { limitsOf, provablyUnsent, type RawReply, type Transport, type TransportLimits } from './transport-limits.js';

export interface SocketTransportOptions extends Partial<TransportLimits> {
  /** The gate's local socket, `<home>/gate.sock`. */
  socketPath: string;
}

/**
 * Newline-delimited JSON-RPC over the gate's unix socket: exactly one line written per
 * call on a fresh connection, the reply read up to the first newline (docs/protocol.md#client-transport-rules),
 * under one deadline and the reply cap.
 */
export class SocketTransport implements Transport {
  private readonly limits: TransportLimits;

  constructor(private readonly options: SocketTransportOptions) {
    this.limits = limitsOf(options);
  }

  roundTrip(message: Record<string, unknown>, write: boolean): Promise<RawReply> {
    const line = JSON.stringify(message);
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > this.limits.maxRequestBytes) {
      return Promise.reject(new GateClientError('request_too_large', `the request is ${bytes} bytes; the limit is ${this.limits.maxRequestBytes}`));
    }
    return new Promise((resolve, reject) => {
      let connected = false;
      let settled = false;
      const chunks: Buffer[] = [];
      let size = 0;
      const socket: Socket = connect(this.options.socketPath);
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        outcome();
      };
      const timer = setTimeout(
        () => finish(() => reject(new GateClientError('timeout', `no reply within ${this.limits.deadlineMs} ms`, { outcome_unknown: write && connected }))),
        this.limits.deadlineMs,
      );
      socket.on('connect', () => {
        connected = true;
        socket.write(`${line}\n`);
      });
      socket.on('data', (chunk: Buffer) => {
        const nl = chunk.indexOf(0x0a);
        const part = nl < 0 ? chunk : chunk.subarray(0, nl);
        size += part.length;
        if (size > this.limits.maxResponseBytes) {
          return finish(() => reject(new GateClientError('invalid_response', `the reply is over ${this.limits.maxResponseBytes} bytes`, { outcome_unknown: write })));
        }
        chunks.push(part);
        if (nl < 0) return;
        const text = Buffer.concat(chunks).toString('utf8');
        finish(() => {
          try {
            resolve({ value: parseStrictJson(text) });
          } catch (error) {
            reject(new GateClientError('invalid_response', `the reply is not valid JSON: ${(error as Error).message}`, { outcome_unknown: write }));
          }
        });
      });
      socket.on('error', (error) =>
        finish(() =>
          reject(new GateClientError('transport', `socket ${this.options.socketPath}: ${error.message}`, { outcome_unknown: write && connected && !provablyUnsent(error) })),
        ),
      );
      socket.on('close', () =>
        finish(() => reject(new GateClientError('transport', 'the gate closed the connection before replying', { outcome_unknown: write && connected }))),
      );
    });
  }

  async close(): Promise<void> {}
}
