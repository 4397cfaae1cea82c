import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CredentialError } from '../auth/bearer.js';
import { framingError } from '../http-rpc/json-rpc-answer.js';
import { ErrorCode } from '../gate-error.js';
import type { InFlight } from './in-flight.js';
import { IdentityInFlight, identityShare } from './identity-in-flight.js';
import { BodyBudget, bodyBytesShare } from './body-budget.js';
import { admitBody, BodyRefused, refuseBody } from './body-intake.js';
import { CrossOrigin } from './cross-origin.js';
import { declaresTooMuch, refuseTooLarge, sendJson } from '../http-rpc/http-replies.js';
import { matchPath, type Route } from './route.js';
import { routeTable } from './route-table.js';
import { logHttpRequest, noteRequest } from './request-log.js';
import type { House } from '../verbs/house.js';
import type { RequestObserver } from '../metrics/request-observer.js';
import { ClientAddresses } from './client-address.js';
import type { HealthSources } from './health-routes.js';

export interface HttpSurfaceOptions {
  maxRequestBytes: number;
  maxInFlight: number;
  /** Per caller identity (the config key keeps its older name, `max_in_flight_per_credential`). */
  maxInFlightPerIdentity: number;
  maxBodyBytesInFlight: number;
  maxBodyBytesPerIdentity: number;
  bodyTimeoutMs: number;
  inFlight: InFlight;
  isDraining: () => boolean;
  /** Readiness and the metrics' text (GET /readyz, GET /metrics). */
  health: HealthSources;
  /** Where each request is counted and timed (the gate's metrics); none: not counted. */
  observer?: RequestObserver;
}

/** Where a key with a scope may go over HTTP: events and metrics keys call /rpc (their verbs), a metrics key also GET /metrics. */
const SCOPE_ROUTES: Record<'events' | 'metrics', ReadonlySet<string>> = { events: new Set(['/rpc']), metrics: new Set(['/rpc', '/metrics']) };

/** Retry-After of a busy answer (429, 503): requests in flight finish in well under a second. */
const BUSY_RETRY_AFTER_S = '1';


/**
 * The HTTP surface. Its only jobs are framing, size limits, deriving the caller from the
 * credential and mapping errors to HTTP; the routes are data (route-table.ts) and verbs are
 * reached through the one dispatcher, exactly as from the socket.
 */
export function createHttpSurface(house: House, options: HttpSurfaceOptions): Server {
  // The credentials' checks and the sign-in provider are the root's parts (src/parts/door-auth.ts).
  const auth = house.auth.bearer;
  const provider = house.auth.signIn;
  const perIdentity = new IdentityInFlight(identityShare(options.maxInFlightPerIdentity, options.maxInFlight));
  const budget = new BodyBudget(
    Math.max(options.maxBodyBytesInFlight, options.maxRequestBytes),
    bodyBytesShare(options.maxBodyBytesPerIdentity, options.maxBodyBytesInFlight, options.maxRequestBytes),
  );

  /**
   * Counts a request under its caller's identity, once that is known and before its body is
   * read, and admits the body under the byte budget and the body deadline. False once the
   * identity's share is taken (answered 429).
   */
  const admit = (identity: string, req: IncomingMessage, res: ServerResponse): boolean => {
    const leave = perIdentity.enter(identity);
    if (leave === null) {
      sendJson(res, 429, { error: 'busy: this caller has too many requests in flight' }, { 'retry-after': BUSY_RETRY_AFTER_S });
      return false;
    }
    res.once('close', leave);
    noteRequest(req, { identity });
    admitBody(req, res, identity, budget, options.bodyTimeoutMs);
    return true;
  };

  const clients = new ClientAddresses(house.config.server.trusted_proxies);
  const routes = routeTable(house, { maxRequestBytes: options.maxRequestBytes, provider: () => provider!, auth, admit, clients, health: options.health });
  const crossOrigin = new CrossOrigin(house.config.auth.app_origins);

  async function handle(req: IncomingMessage, res: ServerResponse, route: Route, url: URL, pathParams: Record<string, string>): Promise<void> {
    crossOrigin.decorate(req, res, route);
    if (route.guard === 'local_issuer' && provider === null) {
      return sendJson(res, 404, { error: `no route ${req.method} ${url.pathname}: this gate is not a sign-in provider ([auth].issuer is empty)` });
    }
    // The provider's routes read forms with no credential: their callers are counted by client
    // address (the forwarded one behind a trusted proxy). POST /mcp admits its own caller.
    if (route.guard === 'local_issuer' && !admit(`peer:${clients.of(req).address}`, req, res)) return;
    if (route.guard !== 'bearer') return route.handler({ req, res, url, caller: null, pathParams });
    if (declaresTooMuch(req, options.maxRequestBytes)) return refuseTooLarge(res, framingError(ErrorCode.tooLarge, 'request larger than the limit'));
    let caller;
    try {
      caller = await auth.callerOf(req.headers.authorization, 'http');
    } catch (error) {
      if (error instanceof CredentialError) {
        // RFC 6750 3.1: no error code when no credential was given at all.
        return sendJson(res, 401, error.body(), { 'www-authenticate': error.kind === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"' });
      }
      throw error;
    }
    if (!admit(caller.identity, req, res)) return;
    if (caller.scope !== null && !SCOPE_ROUTES[caller.scope].has(route.path)) {
      const may = caller.scope === 'events' ? 'gv.events' : 'GET /metrics and gv.ping';
      return sendJson(res, 403, { error: `scope: a key with scope ${caller.scope} may call ${may} only, not ${route.method} ${route.path}`, kind: 'scope' });
    }
    return route.handler({ req, res, url, caller, pathParams });
  }

  // Node checks the header and request deadlines every connectionsCheckingInterval (30 s by
  // default), so a stalled connection outlived its deadline by up to that much. An idle
  // connection is kept longer than a load balancer's usual 60 s (and a client's own idle
  // timeout), so the other side ends it: closed here, a request already sent down it is reset.
  const server = createServer({ keepAliveTimeout: 65_000, connectionsCheckingInterval: 1_000 }, (req, res) => {
    const started = performance.now();
    let routePath: string | null = null;
    res.once('close', () => logHttpRequest(house.log, req, res, routePath, started, options.observer));
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://gate.invalid');
    } catch {
      return sendJson(res, 400, { error: 'the request target is not a path' });
    }
    const onPath: Array<{ route: Route; pathParams: Record<string, string> }> = [];
    for (const route of routes) {
      const pathParams = matchPath(route.path, url.pathname);
      if (pathParams !== null) onPath.push({ route, pathParams });
    }
    if (onPath.length === 0) return sendJson(res, 404, { error: `no route ${req.method} ${url.pathname}` });
    if (req.method === 'OPTIONS' && onPath.some((m) => m.route.cors !== undefined)) {
      return crossOrigin.preflight(req, res, onPath.map((m) => m.route));
    }
    const matched = onPath.find((m) => m.route.method === req.method);
    if (matched === undefined) {
      return sendJson(res, 405, { error: `method ${req.method} not allowed on ${url.pathname}` }, {
        allow: [...new Set(onPath.map((m) => m.route.method))].join(', '),
      });
    }
    routePath = matched.route.path;
    // A probe is answered as it stands: draining or busy is what /readyz itself reports.
    if (matched.route.probe === true) {
      return void handle(req, res, matched.route, url, matched.pathParams).catch((error: unknown) => {
        house.log.error(`${req.method} ${url.pathname} failed`, error);
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      });
    }
    if (options.isDraining()) return sendJson(res, 503, { error: 'the gate is shutting down' }, { 'retry-after': BUSY_RETRY_AFTER_S, connection: 'close' });
    if (options.inFlight.size >= options.maxInFlight) {
      return sendJson(res, 503, { error: 'busy: too many requests in flight' }, { 'retry-after': BUSY_RETRY_AFTER_S });
    }
    options.inFlight.enter();
    res.on('close', () => options.inFlight.leave());
    handle(req, res, matched.route, url, matched.pathParams).catch((error: unknown) => {
      if (error instanceof BodyRefused && !res.headersSent) return refuseBody(res, error, BUSY_RETRY_AFTER_S, sendJson);
      house.log.error(`${req.method} ${url.pathname} failed`, error);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  // Node's own whole-request deadline stays a backstop behind the body deadline (body-intake.ts).
  server.requestTimeout = Math.max(60_000, server.headersTimeout + 3 * options.bodyTimeoutMs);
  return server;
}
