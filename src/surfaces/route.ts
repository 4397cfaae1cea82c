import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../access/caller.js';

/**
 * The protocol's guards (docs/protocol.md#routes): `none`, `bearer` (any role; the caller is derived before the handler
 * runs), `local_issuer` (404 with the error body unless this gate is its own sign-in provider).
 */
export type Guard = 'none' | 'bearer' | 'local_issuer';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Set for bearer routes. */
  caller: Caller | null;
  /** The values of the path's {placeholders}. */
  pathParams: Record<string, string>;
}

/** An OpenAPI operation's own parts; paths, guards and security are filled in from the route. */
export interface OperationDoc {
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { description: string; content?: unknown; headers?: unknown }>;
}

/**
 * A route is data (docs/architecture.md#rules-of-the-house; fastify's idea): the server matches, guards, limits and answers
 * browser preflight from these fields, and /openapi.json is generated from the same table.
 */
export interface Route {
  method: 'GET' | 'POST';
  /** An OpenAPI path template; `{name}` matches one path segment. */
  path: string;
  guard: Guard;
  summary: string;
  /** Browser preflight from the listed app origins: `plain`, or `credentials` where the refresh cookie travels. */
  cors?: 'plain' | 'credentials';
  /** A health probe (/livez, /readyz): answered while the gate drains and past server.max_in_flight. */
  probe?: boolean;
  doc: () => OperationDoc;
  handler: (ctx: RouteContext) => void | Promise<void>;
}

const templateCache = new Map<string, RegExp>();

/** Matches a path against a route's template; answers the placeholders' values, or null. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  let pattern = templateCache.get(template);
  if (pattern === undefined) {
    const source = template
      .split(/(\{[a-z_]+\})/)
      .map((part) => (/^\{[a-z_]+\}$/.test(part) ? `(?<${part.slice(1, -1)}>[^/]+)` : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    pattern = new RegExp(`^${source}$`);
    templateCache.set(template, pattern);
  }
  const m = pattern.exec(path);
  return m === null ? null : { ...(m.groups ?? {}) };
}

/** A JSON response body described by a schema, for OperationDoc. */
export const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });
export const errorBody = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };
