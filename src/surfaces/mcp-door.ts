import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Caller } from '../access/caller.js';
import { BearerAuth, CredentialError } from '../auth/bearer.js';
import { SERVICE_VERSION } from '../version.js';
import { callClientTool, ToolProtocolError, type ToolResult } from '../tools/call-tool.js';
import { toolsOf } from '../tools/tool-catalog.js';
import { directCallAnswer, directCallOf, type DirectCall } from './mcp-direct-call.js';
import { META_CAPABILITIES, META_VERSION, MCP_PROTOCOL_VERSION, toolServer } from './mcp-tool-server.js';
import { jsonRpcObject } from '../http-rpc/json-rpc-body.js';
import { isLoopbackHost, isSameOriginLoopback } from './loopback.js';
import type { ClientAddresses } from './client-address.js';
import { publicUrl } from '../config/public-url.js';
import { isJsonObject } from '../domain/json-object.js';
import { noteRequest } from './request-log.js';
import { readBudgetRetryAfter } from '../http-rpc/http-replies.js';
import type { House } from '../verbs/house.js';

/** The 2025 revisions an `initialize` may name when the operator enables the legacy flag. */
const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** Who calls /mcp with no credential when keyless loopback is on: one fixed local agent. */
export const KEYLESS_CALLER: Omit<Caller, 'surface'> = {
  identity: 'local:mcp',
  role: 'agent',
  kind: 'local',
  scope: null,
  demo: false,
};

export interface McpDoorOptions {
  maxRequestBytes: number;
  keylessLoopback: boolean;
  legacyInitialize: boolean;
  readBody: (req: IncomingMessage, limit: number) => Promise<Buffer | null>;
  /** Counts the request under its caller's identity before the body is read; false once answered 429. */
  admit: (identity: string, req: IncomingMessage, res: ServerResponse) => boolean;
  sendJson: (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;
  refuseTooLarge: (res: ServerResponse) => void;
  /** Who sent a request: the peer, or the client a trusted proxy forwarded. */
  clients: ClientAddresses;
}

type Message = Record<string, unknown> & { params?: Record<string, unknown> };

/**
 * POST /mcp, the client tier. The SDK's `createMcpHandler` (`legacy: 'reject'`, JSON
 * answers only) serves the 2026-07-28 revision; this door does what it leaves to its host
 * and what the protocol adds (docs/protocol.md#the-tool-endpoint): the Origin check before the body, the size limit, the caller from a
 * bearer or keyless loopback, and the defaults a bare client leaves out (the SDK would
 * refuse a request naming no version, where the protocol serves it as 2026-07-28).
 */
export class McpDoor {
  private readonly handler: McpHttpHandler;
  /** The origin of server.public_url (else auth.issuer): this gate's own pages behind a proxy. */
  private readonly publicOrigin: string | null;

  constructor(
    private readonly house: House,
    private readonly auth: BearerAuth,
    private readonly options: McpDoorOptions,
  ) {
    const url = publicUrl(house.config);
    this.publicOrigin = url === null ? null : new URL(url).origin;
    this.handler = createMcpHandler(
      (ctx) => {
        const caller = ctx.authInfo?.extra?.['caller'] as Caller;
        const busy = ctx.authInfo?.extra?.['busy'] as Busy;
        return toolServer('client', async (name, args) => {
          const result = await callClientTool(this.house, caller, name, args);
          busy.retryAfter = budgetRetryAfter(result);
          return result;
        });
      },
      {
        legacy: 'reject',
        // 'auto' answers one JSON body unless a handler emits a message before its result;
        // the tool handlers never do, so no answer streams ('json' would say the same with a
        // warning printed at every start).
        responseMode: 'auto',
        maxRequestBodySize: options.maxRequestBytes,
        // Refused requests are answered to their caller; the tools log their own failures.
        onerror: () => undefined,
      },
    );
  }

  readonly post = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { sendJson } = this.options;
    // Before the body is read: a browser page of another origin never reaches the tools.
    const origin = req.headers.origin;
    if (origin !== undefined && !this.ownOrigin(req, origin)) {
      return sendJson(res, 403, { error: `forbidden: origin ${origin} may not call /mcp`, kind: 'origin' });
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > this.options.maxRequestBytes) return this.options.refuseTooLarge(res);
    const caller = await this.callerOf(req, res);
    if (caller === null) return;
    if (!this.options.admit(caller.identity, req, res)) return;
    const body = await this.options.readBody(req, this.options.maxRequestBytes);
    if (body === null) return this.options.refuseTooLarge(res);
    const parsed = jsonRpcObject(body);
    if ('refusal' in parsed) return sendJson(res, parsed.status, parsed.refusal);
    const m = parsed.message as Message;
    if (m['method'] === 'initialize' && this.options.legacyInitialize) return sendJson(res, 200, this.legacyInitializeAnswer(m));
    // A 2025 handshake is handed on as it came, so the SDK refuses it naming the supported versions.
    const headers = m['method'] === 'initialize' ? this.baseHeaders() : this.withDefaults(req, m);
    const direct = directCallOf(m, headers);
    if (direct !== null) return this.answerDirectly(req, res, direct, caller);
    noteRequest(req, mcpMethodOf(m));
    const busy: Busy = { retryAfter: null };
    const answer = await this.handler.fetch(new Request(`http://127.0.0.1${req.url ?? '/mcp'}`, { method: 'POST', headers }), {
      parsedBody: m,
      authInfo: { token: '', clientId: caller.identity, scopes: [], extra: { caller, busy } },
    });
    const text = withLegacyHint(await answer.text());
    const out: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
    if (busy.retryAfter !== null && answer.status === 200) {
      res.writeHead(429, { ...out, 'retry-after': busy.retryAfter, 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
    if (text === '') {
      res.writeHead(answer.status, { 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(answer.status, { ...out, 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  };

  /**
   * This gate's own page: its public origin, or, for a client on this host's loopback, the
   * gate's loopback origin. A loopback origin from a client elsewhere (through a proxy) names
   * that client's own machine, never this gate.
   */
  private ownOrigin(req: IncomingMessage, origin: string): boolean {
    if (this.publicOrigin !== null && origin === this.publicOrigin) return true;
    return this.options.clients.of(req).loopback && isSameOriginLoopback(origin, req.socket.localPort);
  }

  private async answerDirectly(req: IncomingMessage, res: ServerResponse, call: DirectCall, caller: Caller): Promise<void> {
    let outcome: ToolResult | ToolProtocolError;
    try {
      outcome = await callClientTool(this.house, caller, call.name, call.args);
    } catch (error) {
      if (!(error instanceof ToolProtocolError)) throw error;
      outcome = error;
    }
    const refusal = outcome instanceof ToolProtocolError ? outcome.code : toolErrorCode(outcome);
    noteRequest(req, { tool: call.name, ...(refusal === undefined ? {} : { code: refusal }) });
    const text = directCallAnswer(call.id, outcome);
    // A long read past its caller's budget: the tool error as it is, with 429 and Retry-After (a busy answer, docs/protocol.md#error-codes).
    const retryAfter = outcome instanceof ToolProtocolError ? null : budgetRetryAfter(outcome);
    res.writeHead(retryAfter === null ? 200 : 429, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
    });
    res.end(text);
  }

  /** A bearer when one is sent; else keyless loopback when enabled; else 401. A scope-limited or runner key is 403 here. */
  private async callerOf(req: IncomingMessage, res: ServerResponse): Promise<Caller | null> {
    const { sendJson } = this.options;
    const header = req.headers.authorization;
    if (header === undefined && this.options.keylessLoopback) {
      // The client's address, not the peer's: behind a trusted proxy on this host the peer is
      // always loopback, and the client may be anywhere.
      if (!this.options.clients.of(req).loopback || !isLoopbackHost(req.headers.host)) {
        sendJson(res, 401, new CredentialError('missing', 'no Authorization header, and keyless access is for loopback only').body(), {
          'www-authenticate': 'Bearer',
        });
        return null;
      }
      return { ...KEYLESS_CALLER, surface: 'mcp' };
    }
    try {
      const caller = await this.auth.callerOf(header, 'mcp');
      if (caller.scope !== null) {
        sendJson(res, 403, { error: `forbidden: a key with scope ${caller.scope} may not call /mcp (${caller.scope === 'events' ? 'gv.events' : 'GET /metrics and gv.ping'} only)`, kind: 'scope' });
        return null;
      }
      // A runner key is usable for the runner verbs only (docs/protocol.md#credentials-and-roles): no tool
      // of /mcp is one, so the door refuses it before listing tools it could never call.
      if (caller.role === 'runner') {
        sendJson(res, 403, { error: 'forbidden: a runner key may call the runner verbs only (over /rpc), not /mcp', kind: 'role' });
        return null;
      }
      return caller;
    } catch (error) {
      if (!(error instanceof CredentialError)) throw error;
      sendJson(res, 401, error.body(), { 'www-authenticate': 'Bearer' });
      return null;
    }
  }

  /**
   * Strict about what is wrong, lenient about what is absent: a header or `_meta` that is
   * present is handed on untouched (so a disagreement is the SDK's -32020 and an unknown
   * version its -32022); whatever is missing is filled in as 2026-07-28.
   */
  private baseHeaders(): Headers {
    return new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  }

  private withDefaults(req: IncomingMessage, m: Message): Headers {
    const headers = this.baseHeaders();
    const given = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : undefined;
    };
    let headerVersion = given('mcp-protocol-version');
    const params = (m.params ??= {}) as Record<string, unknown>;
    if (!isJsonObject(params)) return headers;
    const meta = (typeof params['_meta'] === 'object' && params['_meta'] !== null ? params['_meta'] : {}) as Record<string, unknown>;
    // With the legacy flag on, a 2025 client that initialized is served as 2026-07-28 from then on.
    if (this.options.legacyInitialize && headerVersion !== undefined && LEGACY_VERSIONS.includes(headerVersion) && !(META_VERSION in meta)) {
      headerVersion = MCP_PROTOCOL_VERSION;
    }
    if (!(META_VERSION in meta)) meta[META_VERSION] = headerVersion ?? MCP_PROTOCOL_VERSION;
    if (!(META_CAPABILITIES in meta)) meta[META_CAPABILITIES] = {};
    params['_meta'] = meta;
    headers.set('mcp-protocol-version', headerVersion ?? String(meta[META_VERSION]));
    const method = given('mcp-method') ?? (typeof m['method'] === 'string' ? m['method'] : undefined);
    if (method !== undefined) headers.set('mcp-method', method);
    const name = given('mcp-name') ?? (m['method'] === 'tools/call' && typeof params['name'] === 'string' ? params['name'] : undefined);
    if (name !== undefined) headers.set('mcp-name', name);
    return headers;
  }

  /** `initialize` under `[mcp].legacy_initialize`: the 2025 handshake's answer, no session. */
  private legacyInitializeAnswer(m: Message) {
    const asked = m.params?.['protocolVersion'];
    const version = typeof asked === 'string' && LEGACY_VERSIONS.includes(asked) ? asked : LEGACY_VERSIONS[0];
    return {
      jsonrpc: '2.0',
      id: m['id'] ?? null,
      result: {
        protocolVersion: version,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'gate', version: SERVICE_VERSION },
      },
    };
  }
}

/**
 * The SDK's -32022 ("Unsupported protocol version: X") with what a person can do about it:
 * which versions this gate serves, and the operator's `mcp.legacy_initialize`, which
 * makes the gate answer a 2025 `initialize` itself and serve that client as 2026-07-28.
 * Any other answer is handed on as it came.
 */
export function withLegacyHint(text: string): string {
  if (!text.includes('-32022')) return text;
  let answer: { error?: { code?: unknown; message?: unknown; data?: { supported?: unknown; requested?: unknown } } };
  try {
    answer = JSON.parse(text);
  } catch {
    return text;
  }
  const error = answer.error;
  if (error?.code !== -32022 || typeof error.message !== 'string') return text;
  const supported = Array.isArray(error.data?.supported) ? error.data.supported.join(', ') : MCP_PROTOCOL_VERSION;
  const requested = error.data?.requested;
  const legacy = typeof requested === 'string' && LEGACY_VERSIONS.includes(requested);
  error.message =
    `${error.message}. This gate serves MCP ${supported} only. ` +
    (legacy
      ? `Its operator can set mcp.legacy_initialize = true ([mcp] legacy_initialize in gate.toml, or GATE_MCP_LEGACY_INITIALIZE=true) to accept ${requested} clients: ` +
        `the gate then answers their initialize itself and serves their later requests as ${MCP_PROTOCOL_VERSION}.`
      : `Its operator can set mcp.legacy_initialize = true to accept clients of the 2025 revisions (${LEGACY_VERSIONS.join(', ')}); ` +
        `a client of another version must speak ${supported}.`);
  return JSON.stringify(answer);
}

/** What the log names for an /mcp message the SDK answers: a tool this build serves, or a method of the protocol; never the caller's own text. */
function mcpMethodOf(m: Message): { tool?: string; mcp_method?: string } {
  const method = m['method'];
  if (method === 'tools/call') {
    const name = m.params?.['name'];
    return typeof name === 'string' && CLIENT_TOOL_NAMES.has(name) ? { tool: name } : {};
  }
  return typeof method === 'string' && MCP_METHODS.has(method) ? { mcp_method: method } : {};
}

const CLIENT_TOOL_NAMES = new Set<string>(toolsOf('client').map((t) => t.name));
const MCP_METHODS = new Set(['server/discover', 'tools/list', 'initialize', 'ping']);

/** Filled in by a tools/call the SDK answers: the Retry-After of a long read refused past its caller's budget. */
interface Busy {
  retryAfter: string | null;
}

/** The Retry-After of a tool error that is a long read refused past its caller's budget, else null. */
function budgetRetryAfter(result: ToolResult): string | null {
  const error = result.isError ? result.structuredContent['error'] : undefined;
  return isJsonObject(error) ? readBudgetRetryAfter(error as { code: number; data?: Record<string, unknown> }) : null;
}

/** A tool error's code (its structured `error`), for the request's log line. */
function toolErrorCode(result: ToolResult): number | undefined {
  if (!result.isError) return undefined;
  const error = result.structuredContent['error'];
  return isJsonObject(error) && typeof error['code'] === 'number' ? error['code'] : undefined;
}
