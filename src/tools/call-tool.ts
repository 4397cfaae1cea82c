import type { Caller } from '../access/caller.js';
import { ErrorCode, GateError, invalidParams } from '../gate-error.js';
import { call } from '../verbs/dispatch.js';
import { validateFields } from '../http-rpc/validate-fields.js';
import type { Tier, Tool } from './define-tool.js';
import { inputOf, toolsOf } from './tool-catalog.js';
import { isJsonObject } from '../domain/json-object.js';
import { shapedAnswer, type toolErrorOutput } from './tool-output.js';
import type { z } from 'zod';
import type { House } from '../verbs/house.js';

/** MCP's CallToolResult: the structured output, a text block with the same payload, isError. */
export interface ToolResult {
  [key: string]: unknown;
  structuredContent: Record<string, unknown>;
  content: { type: 'text'; text: string }[];
  isError: boolean;
}

const toolResult = (payload: Record<string, unknown>, isError: boolean): ToolResult => ({
  structuredContent: payload,
  content: [{ type: 'text', text: JSON.stringify(payload) }],
  isError,
});

/** A tool's answer, shaped through its output schema (the one declaration tools/list serves). */
export const toolAnswer = (tool: Tool, payload: unknown): ToolResult => toolResult(shapedAnswer(tool, payload), false);

/** A refusal by the verb or of the arguments: a tool error the agent can read and act on. */
export const toolError = (error: GateError): ToolResult =>
  toolResult({ error: error.toJSON() } satisfies z.output<typeof toolErrorOutput>, true);

/**
 * Thrown for what the tool endpoint answers as a JSON-RPC error (docs/protocol.md#the-tool-endpoint) rather than a tool error: a tool this
 * build does not serve (-32602), or the service's own failure (-32603).
 */
export class ToolProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function findTool(tier: Tier, name: unknown): Tool {
  const tool = toolsOf(tier).find((t) => t.name === name);
  if (!tool) throw new ToolProtocolError(ErrorCode.invalidParams, `unknown tool: ${String(name)} (this build serves ${toolsOf(tier).map((t) => t.name).join(', ')})`);
  return tool;
}

/** Validates a tool's arguments by its own rules: identity fields, null and unlisted fields refused by name. */
export function toolArguments(tool: Tool, tier: Tier, raw: unknown): Record<string, unknown> {
  if (raw !== undefined && !isJsonObject(raw)) {
    throw invalidParams('arguments must be an object');
  }
  const args = { ...((raw ?? {}) as Record<string, unknown>) };
  for (const field of tool.nullable ?? []) if (args[field] === null) delete args[field];
  return validateFields(inputOf(tool, tier), tool.refused, args) as Record<string, unknown>;
}

/**
 * gate.<name> on the client tier: the tool's arguments checked, then the one dispatcher's
 * `call` runs the verb exactly as /rpc would for this caller. A GateError is the agent's
 * to read (isError); anything else is the service's own failure.
 */
export async function callClientTool(house: House, caller: Caller, name: unknown, rawArgs: unknown): Promise<ToolResult> {
  const tool = findTool('client', name);
  try {
    const args = toolArguments(tool, 'client', rawArgs);
    const result = await call(house, caller, tool.verb, tool.params(args));
    return toolAnswer(tool, tool.answer(result, args));
  } catch (error) {
    if (error instanceof GateError && error.code !== ErrorCode.internal) return toolError(error);
    house.log.error(`internal error in ${tool.name}`, error);
    throw new ToolProtocolError(ErrorCode.internal, 'internal error');
  }
}
