import { spawn, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createInterface } from 'node:readline';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessServer } from '../harness/in-process-server.js';
import { CLI, httpRequest, tempHome } from '../harness/gate-process.js';
import { CLIENT_ID, freePort, pkcePair } from '../harness/sign-in.js';

/**
 * Where the gate listens and whose forwarding headers it reads: X-Forwarded-For counts only
 * from a peer listed in server.trusted_proxies, and then the forwarded client (not the
 * loopback peer) decides keyless /mcp and the sign-in form's loopback origins.
 */
const tools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const fromInternet = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' };

describe('X-Forwarded-For is read only from a trusted proxy', () => {
  const gates: InProcessServer[] = [];
  afterAll(async () => {
    for (const g of gates) await g.stop();
  });
  const start = async (settings: Record<string, unknown>) => {
    const g = await InProcessServer.start(settings);
    gates.push(g);
    return g;
  };

  it('with no trusted proxy, or one this peer is not, a loopback caller claiming another address is still the loopback caller it is', async () => {
    for (const proxies of [[], ['10.0.0.0/8', '192.0.2.1']]) {
      const gate = await start({ 'server.trusted_proxies': proxies });
      const served = await gate.http('POST', '/mcp', { body: tools, headers: fromInternet });
      expect(served.status).toBe(200);
    }
  });

  it('from a trusted proxy, the forwarded client decides keyless /mcp and the loopback origins of the sign-in form', async () => {
    const gate = await start({ 'server.trusted_proxies': ['127.0.0.1'] });
    expect((await gate.http('POST', '/mcp', { body: tools })).status).toBe(200);
    const forwarded = await gate.http('POST', '/mcp', { body: tools, headers: fromInternet });
    expect(forwarded.status).toBe(401);
    expect(forwarded.json).toMatchObject({ kind: 'missing' });
    // A loopback client forwarded by the proxy is a loopback caller.
    expect((await gate.http('POST', '/mcp', { body: tools, headers: { 'x-forwarded-for': '127.0.0.9' } })).status).toBe(200);

    const { challenge } = pkcePair();
    const fields = { response_type: 'code', client_id: CLIENT_ID, redirect_uri: `${gate.url}/app`, state: 's', code_challenge: challenge, code_challenge_method: 'S256' };
    const post = (headers: Record<string, string>) =>
      gate.http('POST', '/oauth/authorize', {
        raw: new URLSearchParams({ ...fields, email: 'nobody@example.com', password: 'not-a-password' }).toString(),
        // localhost:PORT is one of the gate's loopback origins (its issuer's is 127.0.0.1:PORT, always its own).
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: gate.url.replace('127.0.0.1', 'localhost'), ...headers },
      });
    // The gate's own loopback origin, from a client on this host: its own page (a wrong password is answered 200).
    expect((await post({})).status).toBe(200);
    // The same origin from a client behind the proxy names that client's own machine.
    const foreign = await post(fromInternet);
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('another site');
  });
});

describe('gate serve --host', () => {
  it('listens on the address given and says so; the default loopback address is not bound', async () => {
    const port = await freePort();
    const home = tempHome();
    const child = spawn(process.execPath, [CLI, 'serve', '--home', home, '--port', String(port), '--host', '127.0.0.2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('gate listening') && resolve(l));
        child.once('exit', (code) => reject(new Error(`gate serve exited ${code}`)));
      });
      expect(line).toContain(`gate listening on http://127.0.0.2:${port} `);
      expect((await httpRequest(`http://127.0.0.2:${port}`, 'GET', '/livez')).status).toBe(200);
      await expect(httpRequest(`http://127.0.0.1:${port}`, 'GET', '/livez')).rejects.toThrow();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);

  it('refuses a host that is no address, and a public URL other than the issuer', () => {
    const serve = (env: Record<string, string>) => spawnSync(process.execPath, [CLI, 'serve', '--home', tempHome(), '--port', '0'], { encoding: 'utf8', env: { ...process.env, ...env } });
    const badHost = serve({ GATE_SERVER_HOST: 'gate.example.com' });
    expect(badHost.status).toBe(1);
    expect(badHost.stderr).toContain('server.host');
    const disagree = serve({ GATE_SERVER_PUBLIC_URL: 'https://gate.example.com', GATE_AUTH_ISSUER: 'https://other.example.com' });
    expect(disagree.status).toBe(1);
    expect(disagree.stderr).toContain('server.public_url (https://gate.example.com) and auth.issuer (https://other.example.com) differ');
    const badProxy = serve({ GATE_SERVER_TRUSTED_PROXIES: '10.0.0.0/33' });
    expect(badProxy.status).toBe(1);
    expect(badProxy.stderr).toContain('trusted_proxies');
    // Three starts of the CLI: under the suite's load each may take tens of seconds.
  }, 180_000);

  it('a metrics address it cannot bind stops the start and leaves the home free for the next', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const home = tempHome();
      const address = `127.0.0.1:${(taken.address() as AddressInfo).port}`;
      const refused = spawnSync(process.execPath, [CLI, 'serve', '--home', home, '--port', '0'], { encoding: 'utf8', env: { ...process.env, GATE_SERVER_METRICS_ADDRESS: address } });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('EADDRINUSE');
      expect(existsSync(join(home, 'gate.lock'))).toBe(false);
      expect(existsSync(join(home, 'gate.sock'))).toBe(false);
    } finally {
      taken.close();
    }
  }, 120_000);
});
