import { ProtocolError, Server } from '@modelcontextprotocol/server';
import { SERVICE_VERSION } from '../version.js';
import type { Tier } from '../tools/define-tool.js';
import { toolListing, toolsOf } from '../tools/tool-catalog.js';
import { ToolProtocolError, type ToolResult } from '../tools/call-tool.js';

/** The protocol revision the tool endpoint serves (docs/protocol.md#body-forms-and-versions). */
export const MCP_PROTOCOL_VERSION = '2026-07-28';
/** The `_meta` members of a 2026-07-28 request that carry what a 2025 handshake negotiated. */
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

const listings = new Map<Tier, { tools: ReturnType<typeof toolListing>[] }>();
/** tools/list for a tier, built once: the SDK asks for a fresh server per request. */
function listingOf(tier: Tier) {
  let listing = listings.get(tier);
  if (!listing) listings.set(tier, (listing = { tools: toolsOf(tier).map((t) => toolListing(t, tier)) }));
  return listing;
}

/**
 * A low-level SDK server for one tier: tools/list from the tool table, tools/call handed to
 * `callTool`. Stateless, so it announces no list changes; the SDK answers server/discover.
 */
export function toolServer(tier: Tier, callTool: (name: string, args: unknown) => Promise<ToolResult>): Server {
  const server = new Server(
    { name: tier === 'client' ? 'gate' : 'gate-plugin', version: SERVICE_VERSION },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler('tools/list', () => listingOf(tier));
  server.setRequestHandler('tools/call', async (request) => {
    try {
      return await callTool(request.params.name, request.params.arguments);
    } catch (error) {
      if (error instanceof ToolProtocolError) throw new ProtocolError(error.code, error.message);
      throw error;
    }
  });
  return server;
}
