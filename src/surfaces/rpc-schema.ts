import { VERBS_BY_NAME } from '../verbs/registry.js';
import { z } from 'zod';

/**
 * A verb's params or answer as JSON Schema 2020-12: params as a caller sends them (the input
 * side of each type), an answer as the gate sends it (the output side).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
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
      params: jsonSchemaOf(verb.params),
    },
    required: ['jsonrpc', 'method'],
    additionalProperties: false,
    'x-role': verb.role,
  }));
  return { oneOf: alternatives };
}

/**
 * The 200 answer of POST /rpc, generated from the same registry: one alternative per verb, its
 * `result` the verb's answer schema (titled with the verb, whose request says which applies),
 * and the error envelope every refusal shares.
 */
export function rpcResponseSchema(): Record<string, unknown> {
  const results = [...VERBS_BY_NAME.values()].map((verb) => ({
    title: verb.name,
    type: 'object',
    properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, result: jsonSchemaOf(verb.answer, 'output') },
    required: ['jsonrpc', 'id', 'result'],
  }));
  const refusal = {
    title: 'error',
    type: 'object',
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      error: {
        type: 'object',
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object' } },
        required: ['code', 'message'],
      },
    },
    required: ['jsonrpc', 'id', 'error'],
  };
  return { anyOf: [...results, refusal] };
}
