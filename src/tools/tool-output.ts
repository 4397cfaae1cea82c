import { z } from 'zod';
import { internalError } from '../gate-error.js';
import type { Tool } from './define-tool.js';

/**
 * A tool error's structuredContent: the GateError as JSON-RPC would carry it. `data` stays an
 * open object: what it names depends on the code and reason (field, reason, retry_after_ms...).
 */
export const toolErrorOutput = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
});

/**
 * What a tool declares it sends: exactly one of its success object and the error object.
 * MCP leaves an error result's structuredContent to the server, so the schema describes
 * both rather than leave a strict client to reject every refusal.
 */
export const outputOf = (tool: Tool) => z.xor([tool.output, toolErrorOutput]);

/**
 * The answer as it leaves the gate: parsed through the tool's output schema, so a field the
 * schema does not declare is never sent (a verb may grow fields; the tool serves them once it
 * declares them) and a declared field of the wrong type or missing is the gate's own failure,
 * loud in every test, never a reply a strict client refuses.
 */
export function shapedAnswer(tool: Tool, payload: unknown): Record<string, unknown> {
  const parsed = tool.output.safeParse(payload);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw internalError(`${tool.name} answered outside its output schema: ${where}`);
}
