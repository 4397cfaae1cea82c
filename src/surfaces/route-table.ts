import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BearerAuth } from '../auth/bearer.js';
import type { SignInProvider } from '../auth/sign-in-provider.js';
import { mcpRoutes } from './mcp-routes.js';
import { appRoutes } from './app-routes.js';
import { sendJson } from '../http-rpc/http-replies.js';
import { oauthRoutes } from './oauth-routes.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import { openApiDocument } from './openapi-document.js';
import { plainRoutes } from './plain-routes.js';
import { jsonContent, type Route } from './route.js';
import { rpcRoute } from './rpc-route.js';
import { healthRoutes, type HealthSources } from './health-routes.js';
import type { ClientAddresses } from './client-address.js';
import type { House } from '../verbs/house.js';

export interface RouteTableOptions {
  maxRequestBytes: number;
  /** The sign-in provider; called only by `local_issuer` routes, which the server answers 404 while there is none. */
  provider: () => SignInProvider;
  /** The bearer check, for routes that guard themselves (POST /mcp: a bearer, or keyless loopback). */
  auth: BearerAuth;
  /** Counts a request under its caller's identity and admits its body; false once answered 429 (for routes that derive their own caller). */
  admit: (identity: string, req: IncomingMessage, res: ServerResponse) => boolean;
  /** Who sent a request: the peer, or the client a trusted proxy forwarded. */
  clients: ClientAddresses;
  /** Readiness and the metrics' text, for the health routes. */
  health: HealthSources;
}

/**
 * Every HTTP route of the gate, once. The server serves exactly these and /openapi.json
 * describes exactly these: a new route is one more entry here (a Route: method, path
 * template, guard, summary, cors, doc, handler) and nothing else.
 */
export function routeTable(house: House, options: RouteTableOptions): Route[] {
  const routes: Route[] = [
    ...plainRoutes(house),
    ...healthRoutes(house, options.health),
    ...appRoutes(),
    rpcRoute(house, options.maxRequestBytes),
    {
      method: 'GET',
      path: '/openapi.json',
      guard: 'bearer',
      summary: 'This description: OpenAPI 3.1.0 generated from the route table and the verb registry (any role).',
      doc: () => ({ responses: { 200: { description: 'the OpenAPI document', content: jsonContent({ type: 'object' }) } } }),
      handler: ({ res }) => sendJson(res, 200, openApiDocument(house, routes)),
    },
    ...oauthRoutes(options.provider, options.clients),
    ...passwordResetRoutes(house, options.provider, options.clients),
    ...mcpRoutes(house, options.auth, options.maxRequestBytes, options.admit, options.clients),
  ];
  return routes;
}
