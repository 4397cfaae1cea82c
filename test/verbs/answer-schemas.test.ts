import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VERBS } from '../../src/verbs/registry.js';
import { ANSWERS_CHECKED, checkAnswer } from '../../src/verbs/answer-check.js';
import { defineVerb } from '../../src/verbs/define-verb.js';
import { GateError } from '../../src/gate-error.js';

/**
 * Every verb declares its answer beside its params, and the tests hold every answer a gate gives
 * to it (GATE_CHECK_ANSWERS, set in vitest.config.ts for this process and every gate it starts):
 * here, that the check refuses what a handler must not send, and that it is on.
 */
const sample = defineVerb({
  name: 'gv.sample',
  role: 'reader',
  summary: 'a verb of this test',
  params: z.strictObject({}),
  answer: z.object({
    id: z.string(),
    rows: z.array(z.object({ n: z.number().int(), note: z.string().optional() })),
    kind: z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]),
  }),
  uses: [],
  handler: () => ({ id: 'x', rows: [], kind: { a: 'y' } }),
});

const refusal = (answer: unknown) => {
  try {
    checkAnswer(sample, answer);
  } catch (error) {
    expect(error).toBeInstanceOf(GateError);
    return (error as GateError).message;
  }
  return null;
};

describe("each verb's answer schema", () => {
  it('is on in the tests', () => {
    expect(process.env['GATE_CHECK_ANSWERS']).toBe('1');
    expect(ANSWERS_CHECKED).toBe(true);
  });

  it('accepts an answer as declared, an absent optional field and either shape of a union', () => {
    expect(refusal({ id: 'x', rows: [{ n: 1 }, { n: 2, note: 'two' }], kind: { a: 'y' } })).toBeNull();
    expect(refusal({ id: 'x', rows: [], kind: { a: 'y', b: 2 } })).toBeNull();
    // An undefined field leaves on the wire as no field at all.
    expect(refusal({ id: 'x', rows: [{ n: 1, note: undefined }], kind: { a: 'y' } })).toBeNull();
  });

  it('refuses a field the schema does not declare, at any depth, naming its path', () => {
    expect(refusal({ id: 'x', rows: [], kind: { a: 'y' }, extra: 1 })).toMatch(/^gv\.sample answered outside its answer schema: \(root\): .*\(extra\)/);
    expect(refusal({ id: 'x', rows: [{ n: 1, secret: 's' }], kind: { a: 'y' } })).toMatch(/rows\.0: .*\(secret\)/);
    expect(refusal({ id: 'x', rows: [], kind: { a: 'y', b: 2, c: 3 } })).toMatch(/kind: .*\(.*\bc\)$/);
  });

  it('refuses a missing field and a field of the wrong type', () => {
    expect(refusal({ rows: [], kind: { a: 'y' } })).toMatch(/id: /);
    expect(refusal({ id: 'x', rows: [{ n: 1.5 }], kind: { a: 'y' } })).toMatch(/rows\.0\.n: /);
    expect(refusal({ id: 7, rows: [], kind: { a: 'y' } })).toMatch(/id: /);
  });

  it('is declared by every verb of the registry and renders as JSON Schema', () => {
    for (const verb of VERBS) {
      expect(verb.answer, verb.name).toBeInstanceOf(z.ZodType);
      expect(() => z.toJSONSchema(verb.answer, { io: 'output', unrepresentable: 'any' }), verb.name).not.toThrow();
    }
  });
});
