import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from './route.js';

const PREFLIGHT_MAX_AGE_S = '600';

/**
 * Cross-origin answers for the console served from a listed app origin (`[auth].app_origins`):
 * only routes marked `cors`, only those origins; every other origin gets no
 * Access-Control header at all, so a browser keeps the answer from its page.
 */
export class CrossOrigin {
  private readonly listed: ReadonlySet<string>;

  constructor(appOrigins: readonly string[]) {
    this.listed = new Set(appOrigins.map((o) => new URL(o).origin));
  }

  private allowed(req: IncomingMessage, route: Route | undefined): string | null {
    const origin = req.headers.origin;
    if (origin === undefined || route?.cors === undefined) return null;
    return this.listed.has(origin) ? origin : null;
  }

  /** Headers on an actual request's answer from a listed origin. */
  decorate(req: IncomingMessage, res: ServerResponse, route: Route): void {
    const origin = this.allowed(req, route);
    res.setHeader('vary', 'Origin');
    if (origin === null) return;
    res.setHeader('access-control-allow-origin', origin);
    if (route.cors === 'credentials') res.setHeader('access-control-allow-credentials', 'true');
  }

  /** OPTIONS on a path: 204 with the cross-origin headers for a listed origin, 403 for any other. */
  preflight(req: IncomingMessage, res: ServerResponse, routes: Route[]): void {
    const methods = routes.map((r) => r.method);
    const requested = req.headers['access-control-request-method'];
    const route = routes.find((r) => r.method === requested) ?? routes.find((r) => r.cors !== undefined);
    const origin = this.allowed(req, route);
    if (req.headers.origin === undefined) {
      res.writeHead(204, { allow: [...methods, 'OPTIONS'].join(', '), 'content-length': 0 });
      res.end();
      return;
    }
    if (origin === null || route === undefined) {
      const text = JSON.stringify({ error: `origin ${req.headers.origin} is not a listed app origin of ${req.url?.split('?')[0]}` });
      res.writeHead(403, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), vary: 'Origin' });
      res.end(text);
      return;
    }
    res.writeHead(204, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': routes.filter((r) => r.cors !== undefined).map((r) => r.method).join(', '),
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': PREFLIGHT_MAX_AGE_S,
      ...(route.cors === 'credentials' ? { 'access-control-allow-credentials': 'true' } : {}),
      vary: 'Origin',
      'content-length': 0,
    });
    res.end();
  }
}
