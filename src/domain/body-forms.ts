import { z } from 'zod';

/**
 * Closed body forms (docs/protocol.md#body-forms-and-versions). The protocol names them without giving their
 * fields; these shapes are this build's, documented in the README's reference section.
 * The id pattern accepts the same operand forms as every artifact parameter (C4).
 */
const id = z.string().regex(/^(sha256:)?[0-9a-f]{64}$/);

export const questionBody = z.strictObject({
  format: z.literal('question/1'),
  question: z.string().min(1).max(4000),
  context: z.string().max(16000).optional(),
});

export const answerBody = z.strictObject({
  format: z.literal('answer/1'),
  answer: z.string().min(1).max(16000),
  replaces: id.optional(),
  cancels: id.optional(),
  /** A crew's referral: the question goes to people, `answer` saying why (README "Crews and runners"). */
  refer: z.literal(true).optional(),
});

export type QuestionBody = z.infer<typeof questionBody>;
export type AnswerBody = z.infer<typeof answerBody>;
