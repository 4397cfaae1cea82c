import type { z } from 'zod';

/** The tier is fixed by the endpoint reached or the binary launched (docs/protocol.md#the-tool-endpoint). */
export type Tier = 'client' | 'plugin';
export const TIERS: readonly Tier[] = ['client', 'plugin'];

export interface ToolAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  destructiveHint: boolean;
}

/**
 * A tool is a thin mapping onto one verb of the registry: its own input rules (docs/tool-endpoint.md
 * and docs/protocol.md#the-tool-endpoint), the verb's params made from them, and the tool's output made from the verb's
 * answer. It never decides anything the verb decides.
 */
export interface Tool<I extends z.ZodType = z.ZodType> {
  name: `gate.${string}`;
  tiers: readonly Tier[];
  description: string;
  annotations: ToolAnnotations;
  /** The gv.* verb every call ends in. */
  verb: string;
  input: I;
  /** The plugin tier's input where it differs (a default work area, `local:` handles). */
  pluginInput?: z.ZodType;
  /**
   * The success answer: the one declaration of what is sent. The answer is parsed through it
   * (tool-output.ts) and tools/list serves it, with the error form, as the outputSchema.
   */
  output: z.ZodObject;
  /** Top-level fields where the tool allows null (docs/protocol.md#the-tool-endpoint), read as absent (everywhere else null is refused by name). */
  nullable?: readonly string[];
  /** Fields refused by name with a reason of their own (identity fields are refused on every tool). */
  refused?: Record<string, string>;
  /** The verb's params from validated arguments. */
  params: (args: z.output<I>) => Record<string, unknown>;
  /** The tool's structured output from the verb's answer. */
  answer: (result: any, args: z.output<I>) => Record<string, unknown>;
}

export function defineTool<I extends z.ZodType>(tool: Tool<I>): Tool<I> {
  return tool;
}

/** Drops absent arguments, so a verb sees exactly what the caller gave. */
export function present(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false };
export const IDEMPOTENT_WRITE: ToolAnnotations = { readOnlyHint: false, idempotentHint: true, destructiveHint: false };
