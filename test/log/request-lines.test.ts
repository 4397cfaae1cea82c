import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';
import { parsed, until, type LogLine } from './log-lines.js';

// The level by its environment variable; the format left to auto, and stderr is a pipe.
const { gate } = useGate({ env: { GATE_LOG_LEVEL: 'debug' } });
const requests = () => parsed(gate.stderr).filter((l) => l.msg === 'request');

describe('one log line per request, on every door, JSON on a pipe', () => {
  it('/rpc: method, verb, identity, status, ms; the socket: verb and uid; /mcp: the tool', async () => {
    const agent = await gate.key('agent');
    const ingested = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('logged'), workarea: 'notes', kind: 'memory', source_uri: 'test://log' });
    expect(ingested.error).toBeUndefined();
    const list = await gate.http('POST', '/mcp', { key: agent.key, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
    expect(list.status).toBe(200);
    const remember = await gate.http('POST', '/mcp', {
      key: agent.key,
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'gate.remember', arguments: { content: uniqueText('remembered'), workarea: 'notes' } } },
    });
    expect(remember.status).toBe(200);
    await until(() => requests().filter((l) => l['door'] === 'mcp').length === 2, 'the /mcp requests');

    const lines = requests();
    const byDoor = (door: string) => lines.filter((l) => l['door'] === door);
    const issue = byDoor('socket').find((l) => l['verb'] === 'gv.keys')!;
    expect(issue).toMatchObject({ level: 'debug', identity: expect.stringMatching(/^uid:\d+$/) });
    const ingest = byDoor('rpc').find((l) => l['verb'] === 'gv.ingest')!;
    expect(ingest).toMatchObject({ level: 'debug', method: 'POST', route: '/rpc', status: 200, identity: agent.identity });
    expect(typeof ingest['ms']).toBe('number');
    expect(ingest['code']).toBeUndefined();
    expect(byDoor('mcp')[0]).toMatchObject({ route: '/mcp', status: 200, identity: agent.identity, mcp_method: 'tools/list' });
    expect(byDoor('mcp')[1]).toMatchObject({ route: '/mcp', status: 200, identity: agent.identity, tool: 'gate.remember' });
    // One line per request: the ingest is not logged again by the dispatcher.
    expect(byDoor('rpc').filter((l) => l['verb'] === 'gv.ingest')).toHaveLength(1);
  });

  it('a refusal is at info with its code or status; an unknown method is not named', async () => {
    const agent = await gate.key('agent');
    await gate.rpc(agent.key, 'gv.no_such_verb "quoted"');
    await gate.rpc(null, 'gv.ping');
    await until(() => requests().some((l) => l['status'] === 401), 'the 401');
    const refused = requests().find((l) => l['code'] === -32601)!;
    expect(refused).toMatchObject({ level: 'info', status: 200, identity: agent.identity });
    expect(refused['verb']).toBeUndefined();
    expect(requests().find((l) => l['status'] === 401)).toMatchObject({ level: 'info', door: 'rpc' });
    expect(gate.stderr.join('\n')).not.toContain('no_such_verb');
  });

  it('oauth and other routes are named by their template, never by the URL they were asked with', async () => {
    await gate.http('GET', '/oauth/jwks?secret_looking=1');
    await gate.http('GET', '/no/such/path');
    await until(() => requests().some((l) => l['status'] === 404 && l['route'] === null), 'the 404');
    const jwks = requests().find((l) => l['route'] === '/oauth/jwks')!;
    expect(jwks).toMatchObject({ door: 'oauth', method: 'GET' });
    expect(gate.stderr.join('\n')).not.toContain('secret_looking');
  });

  it('every stderr line is one JSON object with level, time and msg', () => {
    for (const line of parsed(gate.stderr) as LogLine[]) {
      expect(['error', 'warn', 'info', 'debug', 'trace']).toContain(line.level);
      expect(Date.parse(line.time)).not.toBeNaN();
      expect(typeof line.msg).toBe('string');
    }
  });
});
