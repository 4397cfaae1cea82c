import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/** A tool call's result as an MCP client receives it. */
export interface CallResult {
  structuredContent?: unknown;
  content?: unknown;
  isError?: boolean;
}

/** One call of a tool: `ok`, or the kind of refusal it provokes, with the code (and data) the refusal must carry. */
export interface SchemaCase {
  kind: 'ok' | 'arguments' | 'unknown_row' | 'role' | 'grant' | 'lifecycle' | 'area' | 'cycle' | 'space' | 'handle';
  args: Record<string, unknown>;
  as?: string;
  code?: number;
  data?: Record<string, unknown>;
}

/**
 * The outputSchemas a tools/list served, compiled once with a JSON Schema 2020-12 validator
 * (ajv, strict), and the check every result of a tool must pass against its tool's schema,
 * success and refusal alike: what a strict client does.
 */
export class ServedOutputSchemas {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(tools: readonly { name: string; outputSchema?: unknown }[]) {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const t of tools) {
      expect(t.outputSchema, `${t.name} serves an outputSchema`).toBeDefined();
      this.validators.set(t.name, ajv.compile(t.outputSchema as object));
    }
  }

  get names(): string[] {
    return [...this.validators.keys()];
  }

  /** The result matches its tool's served schema, is an error exactly when refused, and its text block is the same payload. */
  check(name: string, c: SchemaCase, result: CallResult): void {
    const label = `${name} ${c.kind} ${JSON.stringify(c.args)}`;
    const validate = this.validators.get(name)!;
    const valid = validate(result.structuredContent);
    expect(validate.errors ?? [], `${label}: ${JSON.stringify(result.structuredContent)}`).toEqual([]);
    expect(valid, label).toBe(true);
    expect(result.content, label).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    expect(result.isError, `${label}: ${JSON.stringify(result.structuredContent)}`).toBe(c.kind !== 'ok');
    if (c.kind === 'ok') return;
    const error = (result.structuredContent as { error: { code: number; data?: Record<string, unknown> } }).error;
    if (c.code !== undefined) expect(error.code, label).toBe(c.code);
    if (c.data !== undefined) expect(error.data, label).toMatchObject(c.data);
  }
}

/** Every served tool has a case of success and one of invalid arguments (every tool's input is closed). */
export function expectCasesForEveryTool(served: readonly string[], cases: Record<string, readonly SchemaCase[]>): void {
  for (const name of served) {
    const kinds = (cases[name] ?? []).map((c) => c.kind);
    expect(kinds, `${name} needs a success case`).toContain('ok');
    expect(kinds, `${name} needs an invalid-arguments case`).toContain('arguments');
  }
  expect(Object.keys(cases).sort(), 'no case for a tool the tier does not serve').toEqual([...served].sort());
}

/**
 * The places of a JSON schema where an object admits fields it does not name (no
 * `additionalProperties: false`), as paths like `oneOf/0/properties/results/items/properties/provenance`.
 */
export function openObjects(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const here = s['type'] === 'object' && s['additionalProperties'] !== false && !('oneOf' in s) ? [path || '(root)'] : [];
  const below = Object.entries(s).flatMap(([key, value]) => {
    if (Array.isArray(value)) return value.flatMap((v, i) => openObjects(v, `${path}${path ? '/' : ''}${key}/${i}`));
    return typeof value === 'object' ? openObjects(value, `${path}${path ? '/' : ''}${key}`) : [];
  });
  return [...here, ...below];
}
