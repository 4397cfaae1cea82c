import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate({ kind: 'in-process' });

/** Writes every request line in one go and reads one answer line per request. */
function pipelined(messages: unknown[]): Promise<any[]> {
  return pipelinedLines(messages.map((m) => JSON.stringify(m)));
}

function pipelinedLines(requests: string[]): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(gate.socketPath);
    const lines: any[] = [];
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(requests.map((r) => `${r}\n`).join('')));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let i: number;
      while ((i = buffered.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffered.slice(0, i)));
        buffered = buffered.slice(i + 1);
      }
      if (lines.length === requests.length) {
        socket.end();
        resolve(lines);
      }
    });
    socket.on('error', reject);
  });
}

describe('the socket answers pipelined requests one line each, in the order asked', () => {
  it('keeps the order across slow (ingest) and fast (ping) requests, beyond the per-connection depth', async () => {
    const messages = Array.from({ length: 150 }, (_, i) =>
      i % 3 === 0
        ? { jsonrpc: '2.0', id: i, method: 'gv.ingest', params: { content: `pipelined claim ${i} ${Date.now()}`, workarea: 'tests/pipe', kind: 'memory', source_uri: 's' } }
        : i % 3 === 1
          ? { jsonrpc: '2.0', id: i, method: 'gv.ping' }
          : { jsonrpc: '2.0', id: i, method: 'gv.nope' },
    );
    const answers = await pipelined(messages);
    expect(answers.map((a) => a.id)).toEqual(messages.map((m) => m.id));
    answers.forEach((a, i) => {
      if (i % 3 === 0) expect(a.result.state).toBe('L1_SCANNED');
      if (i % 3 === 1) expect(a.result.pong).toBe(true);
      if (i % 3 === 2) expect(a.error.code).toBe(-32601);
    });
  });

  it('a line that is not JSON gets -32700 and the connection goes on', async () => {
    const answers = await pipelinedLines(['{not json', '{"jsonrpc":"2.0","id":2,"method":"gv.ping"}']);
    expect(answers[0].error.code).toBe(-32700);
    expect(answers[1].result.pong).toBe(true);
  });
});
