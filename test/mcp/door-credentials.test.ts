import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { uniqueText } from '../harness/gate-process.js';
import { mcpPost, tool, toolRefusal } from '../harness/mcp-calls.js';
import { useGate } from '../harness/use-gate.js';

const remember = (workarea: string) => ({ content: uniqueText('door'), content_type: 'memory', source_uri: 'test://door', workarea });

describe('keyless loopback ([mcp].keyless_loopback, on by default)', () => {
  const { gate: keyless } = useGate({ kind: 'in-process' });

  it('a loopback call with no credential is the fixed local agent local:mcp', async () => {
    const r = await tool(keyless, 'remember', remember('door/keyless'));
    const area = await tool(keyless, 'workarea', { workarea: 'door/keyless' });
    expect(area.identity).toBe('local:mcp');
    expect(area.own.map((x: any) => x.artifact_id)).toContain(r.artifact_id);
  });

  it('a bearer, when sent, is used instead', async () => {
    const agent = await keyless.key('agent');
    await tool(keyless, 'remember', remember('door/keyed'), agent.key);
    const area = await tool(keyless, 'workarea', { workarea: 'door/keyed' }, agent.key);
    expect(area.identity).toBe(agent.identity);
    // The keyless identity never wrote there.
    expect((await toolRefusal(keyless, 'workarea', { workarea: 'door/keyed' })).message).toContain('never wrote');
  });

  it('a keyless request naming a non-loopback Host is refused (DNS rebinding)', async () => {
    // fetch will not send a Host of its own choosing; node:http will, as a rebinding page's browser does.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(keyless.url);
      const req = request({ host: u.hostname, port: u.port, path: '/mcp', method: 'POST', headers: { host: 'attacker.example:8480', 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    expect(status).toBe(401);
    expect(JSON.parse(body).kind).toBe('missing');
  });

  it('an Origin other than this gate is 403 before the body is read', async () => {
    const res = await keyless.http('POST', '/mcp', {
      raw: 'not even JSON',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    });
    expect(res.status).toBe(403);
    expect(res.json.kind).toBe('origin');
  });

  it("the gate's own origin is served", async () => {
    const res = await mcpPost(keyless, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: { origin: keyless.url } });
    expect(res.status).toBe(200);
  });
});

describe('with keyless loopback off, /mcp needs a bearer like /rpc', () => {
  const { gate: keyed } = useGate({ kind: 'in-process', env: { GATE_MCP_KEYLESS_LOOPBACK: 'false' } });

  it('no credential is 401 with the credential body', async () => {
    const res = await mcpPost(keyed, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: expect.stringMatching(/^missing: /), kind: 'missing' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('a key this gate never issued is 401 signature', async () => {
    const res = await mcpPost(keyed, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: `gk_${'B'.repeat(43)}` });
    expect(res.status).toBe(401);
    expect(res.json.kind).toBe('signature');
  });

  it('a key with scope events is 403 on the tool endpoint', async () => {
    const reviewer = await keyed.key('reviewer', { scope: 'events' });
    const res = await mcpPost(keyed, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: reviewer.key });
    expect(res.status).toBe(403);
    expect(res.json.kind).toBe('scope');
  });

  it('a valid key is served', async () => {
    const agent = await keyed.key('agent');
    const r = await tool(keyed, 'remember', remember('door/k'), agent.key);
    expect(r.state).toBe('L1_SCANNED');
  });
});
