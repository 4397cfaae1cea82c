import { connect } from 'node:net';

/** Nothing listens on the socket: no gate runs on this home. */
export class NoGateError extends Error {}

/** A gate took the message but did not answer within the deadline. */
export class NoAnswerError extends Error {}

/** The deadline of a socket command unless --timeout says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * Sends one JSON-RPC message over the gate's socket and reads the first line of the answer.
 * A timeout of 0 waits as long as the gate takes.
 */
export function socketCall(socketPath: string, method: string, params: unknown, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const chunks: Buffer[] = [];
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            socket.destroy();
            reject(new NoAnswerError(`the gate on ${socketPath} gave no answer within ${timeoutMs} ms (raise --timeout for long work such as gv.grade_pending)`));
          }, timeoutMs)
        : null;
    socket.on('connect', () => {
      const message: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method };
      if (params !== undefined) message['params'] = params;
      socket.write(`${JSON.stringify(message)}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      // Bytes, not decoded text: a multi-byte character may span two chunks.
      chunks.push(chunk);
      const newline = chunk.indexOf(0x0a);
      if (newline < 0) return;
      if (timer !== null) clearTimeout(timer);
      socket.end();
      const all = Buffer.concat(chunks);
      try {
        resolve(JSON.parse(all.subarray(0, all.indexOf(0x0a)).toString('utf8')) as Record<string, unknown>);
      } catch {
        reject(new NoGateError('the socket answered something that is not JSON'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (timer !== null) clearTimeout(timer);
      reject(new NoGateError(`no gate answers on ${socketPath} (${error.code ?? error.message})`));
    });
  });
}

/** --timeout's value: milliseconds, 0 for no deadline. */
export function timeoutOption(value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`--timeout takes whole milliseconds (0: no deadline), not ${value}`);
  return ms;
}
