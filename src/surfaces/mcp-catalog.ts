import { z } from 'zod';
import { KINDS, RECORDED_CLASSES } from '../domain/kinds.js';
import { answerBody, questionBody } from '../domain/body-forms.js';
import { CREW_SHEET_FORMAT, crewSheetBody } from '../domain/crew-sheet.js';
import { SERVICE_VERSION } from '../version.js';
import { TIERS } from '../tools/define-tool.js';
import { TOOLS, toolListing, toolsOf } from '../tools/tool-catalog.js';
import { VERBS } from '../verbs/registry.js';
import { MCP_PROTOCOL_VERSION } from './mcp-tool-server.js';

const schema = (s: z.ZodType, io: 'input' | 'output' = 'input') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const id = z.union([z.string(), z.number(), z.null()]);
const meta = z.record(z.string(), z.unknown());
const errorObject = z.object({ code: z.number().int(), message: z.string(), data: z.record(z.string(), z.unknown()).optional() });
const toolResult = z.object({
  structuredContent: z.record(z.string(), z.unknown()),
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  isError: z.boolean(),
  resultType: z.literal('complete'),
});

/**
 * GET /mcp/catalog.json (docs/protocol.md#routes: public, no credential): the methods, the envelopes, the
 * content union and each tier's tools, generated from the tool table and the verb registry
 * (docs/architecture.md#rules-of-the-house, rule 3: no hand-kept second list).
 */
function buildCatalog() {
  return {
    catalog_version: 1,
    service: 'gate',
    version: SERVICE_VERSION,
    protocol: {
      versions: [MCP_PROTOCOL_VERSION],
      transport: 'POST /mcp: one JSON-RPC 2.0 message in, one JSON object out; no session id, no streaming; GET /mcp is 405',
      headers: ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name'],
    },
    methods: {
      'server/discover': {
        params: schema(z.object({ _meta: meta.optional() })),
        result: schema(
          z.object({
            supportedVersions: z.array(z.string()),
            capabilities: z.record(z.string(), z.unknown()),
            ttlMs: z.number().int(),
            cacheScope: z.string(),
            resultType: z.literal('complete'),
            _meta: meta,
          }),
        ),
      },
      'tools/list': {
        params: schema(z.object({ _meta: meta.optional() })),
        result: schema(
          z.object({ tools: z.array(z.record(z.string(), z.unknown())), ttlMs: z.number().int(), cacheScope: z.string(), resultType: z.literal('complete') }),
        ),
      },
      'tools/call': {
        params: schema(z.object({ name: z.enum(TOOLS.map((t) => t.name) as [string, ...string[]]), arguments: z.record(z.string(), z.unknown()), _meta: meta.optional() })),
        result: schema(toolResult),
      },
    },
    envelopes: {
      request: schema(z.object({ jsonrpc: z.literal('2.0'), id, method: z.string(), params: z.record(z.string(), z.unknown()).optional() })),
      response: schema(z.object({ jsonrpc: z.literal('2.0'), id, result: z.record(z.string(), z.unknown()) })),
      error: schema(z.object({ jsonrpc: z.literal('2.0'), id, error: errorObject })),
      tool_result: schema(toolResult),
      tool_error: schema(toolResult.extend({ structuredContent: z.object({ error: errorObject }), isError: z.literal(true) })),
    },
    content: {
      description: 'What a claim may be: a kind an agent proposes, a recorded-path class (evidence, never graded), or a closed body form',
      oneOf: [
        { title: 'kind', type: 'string', enum: [...KINDS] },
        { title: 'recorded-path class', type: 'string', enum: [...RECORDED_CLASSES] },
        { title: 'question/1', ...schema(questionBody) },
        { title: 'answer/1', ...schema(answerBody) },
        { title: CREW_SHEET_FORMAT, ...schema(crewSheetBody) },
      ],
    },
    tiers: Object.fromEntries(
      TIERS.map((tier) => [tier, { tools: toolsOf(tier).map((t) => ({ ...toolListing(t, tier), verb: t.verb })) }]),
    ),
    verbs: VERBS.map((v) => ({
      name: v.name,
      role: v.role,
      summary: v.summary,
      params: schema(v.params),
      answer: schema(v.answer, 'output'),
      ...(v.surfaces ? { surfaces: v.surfaces } : {}),
    })),
  };
}

let cached: string | undefined;
/** The catalog's JSON text, built once: the registry does not change while the gate runs. */
export const mcpCatalogText = (): string => (cached ??= JSON.stringify(buildCatalog()));
