import { z } from 'zod';
import type { Tier, Tool } from './define-tool.js';
import { rememberTool } from './remember-tool.js';
import { recallTool } from './recall-tool.js';
import { statusTool, tipTool, whyTool } from './row-tools.js';
import { pendingTool, spacesTool } from './listing-tools.js';
import { completeTool, lineageTool, workareaRelateTool, workareaTool } from './workarea-tools.js';
import { outputOf } from './tool-output.js';

/** Every tool of both tiers, in the order tools/list serves them (docs/tool-endpoint.md). */
export const TOOLS: readonly Tool<any>[] = [
  rememberTool,
  recallTool,
  statusTool,
  whyTool,
  tipTool,
  pendingTool,
  spacesTool,
  workareaTool,
  completeTool,
  workareaRelateTool,
  lineageTool,
];

export const toolsOf = (tier: Tier): Tool[] => TOOLS.filter((t) => t.tiers.includes(tier)) as Tool[];

export const inputOf = (tool: Tool, tier: Tier): z.ZodType => (tier === 'plugin' && tool.pluginInput) || tool.input;

/**
 * A tool's schemas are JSON Schema 2020-12 objects (MCP requires type object at the root; the
 * output's root is then also one of the success and error objects).
 */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...rest, type: 'object' as const };
};

/** A tool as tools/list and the catalog describe it: MCP's Tool shape. */
export function toolListing(tool: Tool, tier: Tier) {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: jsonSchema(inputOf(tool, tier), 'input'),
    outputSchema: jsonSchema(outputOf(tool), 'output'),
    annotations: tool.annotations,
  };
}
