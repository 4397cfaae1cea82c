import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { useGate } from '../harness/use-gate.js';

const { gate } = useGate();

/** Runs one socket call from a process of another local account (nobody). */
function callAsNobody(method: string, params: unknown = {}): any {
  const script = `
    const s = require('node:net').connect(${JSON.stringify(gate.socketPath)});
    let b = '';
    s.on('connect', () => s.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: ${JSON.stringify(method)}, params: ${JSON.stringify(params)} }) + '\\n'));
    s.on('data', (c) => { b += c; const i = b.indexOf('\\n'); if (i >= 0) { process.stdout.write(b.slice(0, i)); s.end(); } });
    s.on('error', (e) => { process.stderr.write(String(e)); process.exit(3); });`;
  const out = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script], {
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`nobody could not call the socket: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

describe('local socket identity comes from the peer credentials (SO_PEERCRED)', () => {
  it('the account running the service is admin with identity uid:<n>', async () => {
    const answer = await gate.socket('gv.describe');
    expect(answer.result.you).toEqual({ identity: `uid:${process.getuid!()}`, role: 'admin', kind: 'local', demo: false });
  });

  it('another local account is agent with identity uid:65534', () => {
    const answer = callAsNobody('gv.describe');
    expect(answer.result.you).toEqual({ identity: 'uid:65534', role: 'agent', kind: 'local', demo: false });
  });

  it('the other account is refused admin verbs naming both roles', () => {
    const answer = callAsNobody('gv.rebuild');
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.data).toEqual({ required: 'admin', role: 'agent' });
  });

  it('the other account writes as uid:65534 with writer_kind local', async () => {
    const answer = callAsNobody('gv.ingest', { content: 'written by nobody', workarea: 'tests/socket', kind: 'memory', source_uri: 'test://nobody' });
    expect(answer.result.state).toBe('L1_SCANNED');
    const seen = await gate.socket('gv.inventory', { q: 'uid:65534' });
    expect(seen.result.artifacts[0]).toMatchObject({ writer_identity: 'uid:65534', writer_kind: 'local' });
  });

  it('a parameter cannot claim another identity', () => {
    const answer = callAsNobody('gv.ingest', {
      content: 'pretending',
      workarea: 'tests/socket',
      kind: 'memory',
      source_uri: 'test://nobody',
      writer_identity: `uid:${process.getuid!()}`,
    });
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain('writer_identity');
  });
});
