import { VERBS_BY_NAME } from '../verbs/registry.js';
import { z } from 'zod';

/** A verb's params as JSON Schema 2020-12 (what a caller sends, so the input side of each type). */
export function paramsSchema(params: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

/**
 * The request body of POST /rpc, generated from the verb registry: one alternative per
 * verb, told apart by `method`, each with its params' schema and least role.
 */
export function rpcRequestSchema(): Record<string, unknown> {
  const alternatives = [...VERBS_BY_NAME.values()].map((verb) => ({
    title: verb.name,
    description: `${verb.summary} Least role: ${verb.role}.${verb.surfaces ? ` Served on the ${verb.surfaces.join(' and ')} surface only.` : ''}`,
    type: 'object',
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      method: { const: verb.name },
      params: paramsSchema(verb.params),
    },
    required: ['jsonrpc', 'method'],
    additionalProperties: false,
    'x-role': verb.role,
  }));
  return { oneOf: alternatives };
}
