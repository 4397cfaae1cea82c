import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

const CONSOLE = 'https://console.example.test';
const STRANGER = 'https://stranger.example.test';
const { gate } = useGate({ kind: 'in-process', env: { GATE_AUTH_APP_ORIGINS: CONSOLE } });

const preflight = (path: string, origin: string, method: string) =>
  gate.http('OPTIONS', path, { headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });

describe('browser preflight answered for listed app origins only', () => {
  for (const [path, method, credentials] of [['/identity', 'GET', false], ['/rpc', 'POST', false], ['/oauth/token', 'POST', true]] as const) {
    it(`${path}: a listed origin gets the cross-origin headers`, async () => {
      const res = await preflight(path, CONSOLE, method);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE);
      expect(res.headers.get('access-control-allow-methods')).toBe(method);
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(res.headers.get('vary')).toBe('Origin');
      expect(res.headers.get('access-control-allow-credentials')).toBe(credentials ? 'true' : null);
    });

    it(`${path}: an unlisted origin gets 403 and no cross-origin header`, async () => {
      const res = await preflight(path, STRANGER, method);
      expect(res.status).toBe(403);
      expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  }

  it('the answer itself carries Access-Control-Allow-Origin for a listed origin only', async () => {
    const listed = await gate.http('GET', '/identity', { headers: { origin: CONSOLE } });
    expect(listed.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    const unlisted = await gate.http('GET', '/identity', { headers: { origin: STRANGER } });
    expect(unlisted.status).toBe(200);
    expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
    const key = (await gate.key('reader')).key;
    const rpc = await gate.http('POST', '/rpc', { key, headers: { origin: CONSOLE }, body: { jsonrpc: '2.0', id: 1, method: 'gv.ping' } });
    expect(rpc.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  });

  it('routes without cross-origin use answer OPTIONS 405; same-origin is never refused', async () => {
    const res = await preflight('/openapi.json', CONSOLE, 'GET');
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await gate.http('OPTIONS', '/rpc');
    expect(plain.status).toBe(204);
    expect(plain.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
