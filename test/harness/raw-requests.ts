import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { GateProcess } from './gate-process.js';

/** One POST of exactly these bytes (no re-encoding on the way), with a bearer when given. */
export async function postBytes(gate: Pick<GateProcess, 'url'>, path: '/rpc' | '/mcp', bytes: Buffer, key: string | null = null) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  const res = await fetch(`${gate.url}${path}`, { method: 'POST', headers, body: bytes });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/**
 * One socket connection: each piece written on its own (with a pause between, so the gate
 * reads them as separate chunks), then `answers` lines read back, parsed.
 */
export function socketExchange(gate: Pick<GateProcess, 'socketPath'>, pieces: Buffer[], answers: number, pauseMs = 30): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(gate.socketPath);
    const lines: any[] = [];
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let i: number;
      while ((i = buffered.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffered.slice(0, i)));
        buffered = buffered.slice(i + 1);
      }
      if (lines.length >= answers) {
        socket.end();
        resolve(lines);
      }
    });
    socket.on('error', reject);
  });
}

/** Request lines for the socket: each message's bytes and a newline. */
export const lines = (...messages: Array<string | Buffer>): Buffer =>
  Buffer.concat(messages.flatMap((m) => [Buffer.isBuffer(m) ? m : Buffer.from(m), Buffer.from('\n')]));

export const sha256Of = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
