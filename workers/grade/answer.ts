/**
 * A reviewer's answer is untrusted input: it is parsed and checked here, in the worker,
 * and anything that is not exactly this shape is a failed run, never an approval.
 */
import { z } from 'zod';

export const ANSWER_MAX_BYTES = 64 * 1024;

/** JSON Schema sent to the backend as the structured-output contract. */
export const ANSWER_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'score', 'rationale', 'evidence', 'counterevidence'],
  properties: {
    decision: { type: 'string', enum: ['approve', 'reject'] },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    rationale: { type: 'string', maxLength: 2000 },
    evidence: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 500 } },
    counterevidence: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 500 } },
  },
} as const;

/** An approval must carry at least this score: an approve the reviewer itself scores low is incoherent. */
export const APPROVE_FLOOR = 50;

export const answerSchema = z
  .strictObject({
    decision: z.enum(['approve', 'reject']),
    score: z.number().int().min(0).max(100),
    rationale: z.string().min(1).max(2000),
    evidence: z.array(z.string().max(500)).max(8),
    counterevidence: z.array(z.string().max(500)).max(8),
  })
  .refine((a) => a.decision === 'reject' || a.score >= APPROVE_FLOOR, `an approval scored below ${APPROVE_FLOOR}`);
export type GradeAnswer = z.output<typeof answerSchema>;

/** The answer, or the sentence saying why it is not one. */
export function parseGradeAnswer(value: unknown): { ok: true; answer: GradeAnswer } | { ok: false; detail: string } {
  let json = value;
  if (typeof value === 'string') {
    try {
      json = JSON.parse(value);
    } catch {
      return { ok: false, detail: 'the answer is not JSON' };
    }
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, detail: parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ').slice(0, 300) };
  }
  return { ok: true, answer: parsed.data };
}
