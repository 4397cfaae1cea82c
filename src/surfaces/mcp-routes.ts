import type { BearerAuth } from '../auth/bearer.js';
import { ErrorCode } from '../gate-error.js';
import { framingError } from '../http-rpc/json-rpc-answer.js';
import { refuseTooLarge, sendJson } from '../http-rpc/http-replies.js';
import { readBody } from './body-intake.js';
import { McpDoor, type McpDoorOptions } from './mcp-door.js';
import { mcpCatalogText } from './mcp-catalog.js';
import { errorBody, jsonContent, type Route } from './route.js';
import type { House } from '../verbs/house.js';

/**
 * The tool endpoint's routes: POST /mcp (GET /mcp is then 405 by the server's own rule)
 * and the public catalog. The door guards itself (a bearer, or keyless loopback: the protocol leaves it open;
 * docs/tool-endpoint.md says what this gate decided), so the
 * table's guard is none.
 */
export function mcpRoutes(house: House, auth: BearerAuth, maxRequestBytes: number, admit: McpDoorOptions['admit'], clients: McpDoorOptions['clients']): Route[] {
  const door = new McpDoor(house, auth, {
    maxRequestBytes,
    keylessLoopback: house.config.mcp.keyless_loopback,
    legacyInitialize: house.config.mcp.legacy_initialize,
    readBody,
    admit,
    clients,
    sendJson,
    refuseTooLarge: (res) => refuseTooLarge(res, framingError(ErrorCode.tooLarge, 'request larger than the limit')),
  });
  return [
    {
      method: 'POST',
      path: '/mcp',
      guard: 'none',
      summary:
        'The tool endpoint (client tier): one JSON-RPC 2.0 message (server/discover, tools/list, tools/call), one JSON object out; a bearer, or none from loopback while [mcp].keyless_loopback is on.',
      doc: () => ({
        requestBody: { required: true, content: jsonContent({ type: 'object' }) },
        responses: {
          200: { description: 'a JSON-RPC response; a tool refusal is a result with isError true', content: jsonContent({ type: 'object' }) },
          400: { description: 'unparsable or non-object JSON, a header that disagrees with the body (-32020), an unsupported version (-32022)', content: jsonContent({ type: 'object' }) },
          401: { description: 'a credential error', content: jsonContent(errorBody) },
          403: { description: 'an origin other than this gate, or a key with scope events', content: jsonContent(errorBody) },
          413: { description: 'larger than the limit' },
        },
      }),
      handler: ({ req, res }) => door.post(req, res),
    },
    {
      method: 'GET',
      path: '/mcp/catalog.json',
      guard: 'none',
      summary: 'The public JSON-schema catalog: methods, envelopes, the content union and per-tier tools, from the registry.',
      doc: () => ({ responses: { 200: { description: 'the catalog', content: jsonContent({ type: 'object' }) } } }),
      handler: ({ res }) => {
        const text = mcpCatalogText();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
    },
  ];
}
