import { SERVICE_VERSION } from '../version.js';
import { errorBody, jsonContent, type Route } from './route.js';
import type { House } from '../verbs/house.js';

const credentialError = {
  type: 'object',
  properties: {
    error: { type: 'string', description: '<kind>: <why>' },
    kind: { type: 'string', enum: ['missing', 'malformed', 'expired', 'issuer', 'audience', 'signature', 'unavailable', 'unsupported'] },
  },
  required: ['error', 'kind'],
};

const busy = (why: string) => ({
  description: why,
  headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
  content: jsonContent(errorBody),
});

const operationId = (route: Route) => `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, '');

/**
 * GET /openapi.json: OpenAPI 3.1.0 generated from the route table, and from the verb
 * registry for /rpc's request body. Never kept by hand: a route or verb added is described.
 */
export function openApiDocument(house: Pick<House, 'auth' | 'deployment'>, routes: readonly Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const doc = route.doc();
    const pathParameters = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
    const documented = new Set((doc.parameters ?? []).map((p) => (p as { name: string }).name));
    const responses: Record<string, unknown> = { ...doc.responses };
    if (route.guard === 'bearer') {
      responses['401'] = { description: 'credential error (docs/protocol.md#credential-errors)', content: jsonContent(credentialError) };
      responses['403'] ??= { description: 'a scope-limited key outside its scope', content: jsonContent(errorBody) };
      responses['413'] ??= { description: 'larger than the limit; refused before the body is read' };
    }
    // Bearer and provider routes and /mcp count their caller under its identity (the provider's per peer
    // address), and read bodies under a deadline and a byte budget (src/surfaces/http-server.ts).
    const counted = route.guard !== 'none' || route.path === '/mcp';
    if (counted) responses['429'] ??= busy(
      "this caller's identity has too many requests in flight (server.max_in_flight_per_credential) or holds its share of request body bytes (server.max_body_bytes_per_identity)" +
        (route.path === '/rpc' || route.path === '/mcp'
          ? "; or a long read (gv.events, gv.graph, gv.inventory, gv.pending, gv.lineage) past the main-thread time its caller's identity may take (server.long_read_budget_ms), answered with its JSON-RPC error -32006 read_budget (a tool error on /mcp)"
          : ''),
    );
    if (counted && route.method === 'POST') responses['408'] ??= { description: 'the request body did not arrive within server.body_timeout_ms; the connection is closed' };
    responses['503'] ??= busy(
      'too many requests in flight (server.max_in_flight), request bodies over their byte budget (server.max_body_bytes_in_flight), or the gate is shutting down',
    );
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      security: route.guard === 'bearer' ? [{ bearer: [] }] : [],
      'x-guard': route.guard,
      parameters: [
        ...pathParameters.filter((name) => !documented.has(name)).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        ...(doc.parameters ?? []),
      ],
      ...(doc.requestBody === undefined ? {} : { requestBody: doc.requestBody }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gate',
      version: SERVICE_VERSION,
      description:
        'The HTTP surface of the gate. Verbs have no REST mapping: every verb is one JSON-RPC 2.0 message to POST /rpc (its request body lists each verb with its params and least role). Routes guarded local_issuer answer 404 unless the gate is its own sign-in provider.',
    },
    servers: [{ url: house.deployment.endpoints.http ?? house.auth.issuer ?? 'http://127.0.0.1:8480' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A person\'s sign-in access token (JWT) or an API key gk_...' },
      },
    },
    paths,
  };
}
