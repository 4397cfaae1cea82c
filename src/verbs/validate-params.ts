import type { z } from 'zod';
import type { Verb } from './define-verb.js';
import { validateFields } from '../http-rpc/validate-fields.js';

/**
 * C3 and the invariants: identity fields and verb-specific refused fields by name, then
 * `null` anywhere by name, then the verb's strict schema (an unlisted field by name).
 */
export function validateParams<P extends z.ZodType>(verb: Verb<P>, raw: unknown): z.output<P> {
  return validateFields(verb.params, verb.refused, raw, verb.nullable);
}
