import { beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { InProcessServer } from '../harness/in-process-server.js';
import { routeTable } from '../../dist/src/surfaces/route-table.js';
import { VERBS } from '../../dist/src/verbs/registry.js';
import { useGate } from '../harness/use-gate.js';

const { gate: server } = useGate({ kind: 'in-process' });

let reader: string;

beforeAll(async () => {
  reader = (await server.socket('gv.keys', { action: 'issue', role: 'reader' })).result.key;
});

/** docs/protocol.md#routes: the routes every gate serves (issue 5 adds /mcp and /mcp/catalog.json). */
const SPEC_ROUTES = [
  ['get', '/openapi.json'],
  ['get', '/identity'],
  ['get', '/.well-known/openid-configuration'],
  ['get', '/oauth/jwks'],
  ['get', '/oauth/authorize'],
  ['post', '/oauth/authorize'],
  ['post', '/oauth/token'],
  ['post', '/oauth/logout'],
  ['get', '/'],
  ['get', '/app'],
  ['post', '/rpc'],
] as const;

describe('GET /openapi.json', () => {
  it('needs a credential (401 missing) and takes any role', async () => {
    const none = await server.http('GET', '/openapi.json');
    expect(none.status).toBe(401);
    expect(none.json.kind).toBe('missing');
    expect((await server.http('GET', '/openapi.json', { key: reader })).status).toBe(200);
  });

  it('is valid OpenAPI 3.1.0 by a maintained validator', async () => {
    const doc = (await server.http('GET', '/openapi.json', { key: reader })).json;
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route of the route table, and the routes of the protocol', async () => {
    const doc = (await server.http('GET', '/openapi.json', { key: reader })).json;
    const described = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    const table = routeTable(server.gate, { maxRequestBytes: 1, provider: () => { throw new Error('not called'); } });
    expect(described.sort()).toEqual(table.map((r) => `${r.method.toLowerCase()} ${r.path}`).sort());
    for (const [method, path] of SPEC_ROUTES) expect(described).toContain(`${method} ${path}`);
    expect(doc.paths['/openapi.json'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/identity'].get.security).toEqual([]);
    expect(doc.paths['/oauth/token'].post['x-guard']).toBe('local_issuer');
  });

  it('names the busy and deadline answers where the gate gives them: 429 per identity, 408 for a late body, 503', async () => {
    const doc = (await server.http('GET', '/openapi.json', { key: reader })).json;
    for (const path of ['/rpc', '/mcp']) {
      expect(Object.keys(doc.paths[path].post.responses)).toEqual(expect.arrayContaining(['408', '429', '503']));
      expect(doc.paths[path].post.responses['429'].headers).toHaveProperty('Retry-After');
    }
    expect(doc.paths['/rpc'].post.responses['503'].description).toContain('server.max_body_bytes_in_flight');
    // A route that counts no identity and reads no body names neither.
    expect(Object.keys(doc.paths['/identity'].get.responses)).not.toContain('429');
    expect(Object.keys(doc.paths['/identity'].get.responses)).not.toContain('408');
  });

  it("/rpc's request body names every verb of the registry with its least role", async () => {
    const doc = (await server.http('GET', '/openapi.json', { key: reader })).json;
    const alternatives = doc.paths['/rpc'].post.requestBody.content['application/json'].schema.oneOf as Array<Record<string, any>>;
    expect(alternatives.map((a) => a.properties.method.const).sort()).toEqual(VERBS.map((v) => v.name).sort());
    const people = alternatives.find((a) => a.properties.method.const === 'gv.people')!;
    expect(people['x-role']).toBe('admin');
    expect(people.properties.params.additionalProperties).toBe(false);
    expect(Object.keys(people.properties.params.properties)).toEqual(expect.arrayContaining(['action', 'iss', 'sub', 'role', 'proof']));
  });

  it('a body over the limit is 413 before it is read', async () => {
    const small = await InProcessServer.start({ 'mcp.max_request_bytes': 1024 });
    try {
      const key = (await small.socket('gv.keys', { action: 'issue', role: 'reader' })).result.key;
      const res = await small.http('GET', '/openapi.json', { key, raw: 'x'.repeat(4096) }).catch(() => ({ status: 413 }));
      expect(res.status).toBe(413);
    } finally {
      await small.stop();
    }
  });
});
