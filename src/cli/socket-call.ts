import { connect } from 'node:net';

export class NoGateError extends Error {}

/** Sends one JSON-RPC message over the gate's socket and reads the first line of the answer. */
export function socketCall(socketPath: string, method: string, params: unknown, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let buffered = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new NoGateError(`no answer from ${socketPath} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      const message: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method };
      if (params !== undefined) message['params'] = params;
      socket.write(`${JSON.stringify(message)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      socket.end();
      try {
        resolve(JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>);
      } catch {
        reject(new NoGateError('the socket answered something that is not JSON'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new NoGateError(`no gate answers on ${socketPath} (${error.code ?? error.message})`));
    });
  });
}
