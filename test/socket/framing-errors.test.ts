import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

// The socket's framing errors (docs/protocol.md#routes: one JSON-RPC message a line; docs/requests.md), through a real socket in a temporary home:
// -32001 for a line over the request limit, -32000 when the peer's identity cannot be derived.
const LIMIT = 64 * 1024;
const { gate } = useGate({ kind: 'in-process', env: { GATE_MCP_MAX_REQUEST_BYTES: String(LIMIT) } });
// A gate serve child: a failpoint is armed as its module loads, once a process (src/failpoints.ts).
const { gate: blind } = useGate({ env: { GATE_FAILPOINTS: 'socket-peer-credentials-unreadable' } });

/** Sends `bytes` on a fresh connection; the first line the gate answers, and whether it then closed. */
function exchange(socketPath: string, bytes: Buffer | string): Promise<{ answer: any; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const s = connect(socketPath);
    let got = '';
    let answer: any;
    s.on('connect', () => s.write(bytes));
    s.on('data', (d) => {
      got += d.toString('utf8');
      const nl = got.indexOf('\n');
      if (nl >= 0 && answer === undefined) answer = JSON.parse(got.slice(0, nl));
    });
    s.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    s.on('close', () => resolve({ answer, closed: true }));
    setTimeout(() => resolve({ answer, closed: false }), 10_000).unref();
  });
}

/** The first `n` answer lines to `bytes` sent on one connection. */
function lines(socketPath: string, bytes: string, n: number): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const s = connect(socketPath);
    let got = '';
    s.on('connect', () => s.write(bytes));
    s.on('data', (d) => {
      got += d.toString('utf8');
      const parts = got.split('\n').filter((l) => l !== '');
      if (got.endsWith('\n') && parts.length >= n) {
        s.end();
        resolve(parts.slice(0, n).map((l) => JSON.parse(l)));
      }
    });
    s.on('error', reject);
  });
}

describe('socket framing errors', () => {
  it('a whole line longer than mcp.max_request_bytes is answered -32001, and the connection serves its next line', async () => {
    const long = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.ping', params: { pad: 'x'.repeat(LIMIT) } });
    const next = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'gv.ping' });
    const answers = await lines(gate.socketPath, `${long}\n${next}\n`, 2);
    expect(answers[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    expect(answers[1]).toMatchObject({ id: 2, result: { pong: true } });
  });

  it('the bytes of an unterminated line past the limit are refused -32001 without waiting for its end', async () => {
    const { answer, closed } = await exchange(gate.socketPath, Buffer.alloc(LIMIT + 1024, 0x61));
    expect(answer).toMatchObject({ error: { code: -32001 } });
    expect(closed).toBe(true);
  });

  it("a peer whose credentials cannot be read is answered -32000 (identity underivable) and the connection ends", async () => {
    const { answer, closed } = await exchange(blind.socketPath, `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'gv.ping' })}\n`);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'identity underivable' } });
    expect(closed).toBe(true);
  });
});
