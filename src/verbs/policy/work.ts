import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { limitParam, spaceParam } from '../param-types.js';
import { requireSpace } from '../../store/require-space.js';
import { waitsForAnswer } from '../answer-types.js';

/**
 * An agent's own open work in one answer: the work areas it wrote into (its part open or
 * complete), its rows still waiting for review with what each waits for, and the questions
 * it asked with how many promoted answers each has. Only the caller's own: nobody else's
 * work is read here, so no grant is asked.
 */
const workAnswer = z.object({
  identity: z.string(),
  areas: z.array(z.object({
    completed_at: z.number().int().optional(),
    space: z.string(),
    workarea: z.string(),
    state: z.string(),
    rows: z.number().int(),
    waiting: z.number(),
    first_write: z.number(),
    last_write: z.number().nullable(),
  })),
  areas_truncated: z.boolean(),
  held: z.array(z.object({
    artifact_id: z.string(),
    state: z.string(),
    space: z.string(),
    workarea: z.string().nullable(),
    kind: z.string().nullable(),
    content_type: z.string(),
    trust_class: z.string(),
    ts: z.number().int(),
    waits_for: waitsForAnswer.pick({ blocker: true, code: true, words: true }).nullable(),
  })),
  held_truncated: z.boolean(),
  questions: z.array(z.object({
    artifact_id: z.string(),
    state: z.string(),
    space: z.string(),
    workarea: z.string().nullable(),
    ts: z.number().int(),
    answers: z.number(),
  })),
  questions_truncated: z.boolean(),
});

export const workVerb = defineVerb({
  name: 'gv.work',
  role: 'agent',
  summary: "Your own open work: your part of each work area (open or complete), your rows waiting for review and what each waits for, the questions you asked.",
  params: z.strictObject({ space: spaceParam.optional(), limit: limitParam(200).optional() }),
  answer: workAnswer,
  uses: ['store', 'review'],
  handler({ caller, store, review }, p) {
    const limit = p.limit ?? 50;
    if (p.space !== undefined) requireSpace({ store }, p.space);
    const me = caller.identity;

    const areas = store.workareas.progressOf(me, p.space, limit + 1).map((a) => ({
      space: a.space,
      workarea: a.workarea,
      state: a.completed_ts === null ? 'open' : 'complete',
      rows: a.rows,
      waiting: a.waiting,
      first_write: a.first_ts,
      last_write: a.last_write,
      ...(a.completed_ts === null ? {} : { completed_at: a.completed_ts }),
    }));

    const held = store.artifacts.waitingBy(me, p.space, limit + 1);
    const questions = store.artifacts.questionsAskedBy(me, p.space, limit + 1);

    return {
      identity: me,
      areas: areas.slice(0, limit),
      areas_truncated: areas.length > limit,
      held: held.slice(0, limit).map((row) => {
        const waits = review.board.picture(row).waitsFor;
        return {
          artifact_id: row.artifact_id,
          state: row.state,
          space: row.space,
          workarea: row.workarea,
          kind: row.kind,
          content_type: row.content_type,
          trust_class: row.trust_class,
          ts: row.ts,
          waits_for: waits === null ? null : { blocker: waits.blocker, code: waits.code, words: waits.words },
        };
      }),
      held_truncated: held.length > limit,
      questions: questions.slice(0, limit).map((row) => ({
        artifact_id: row.artifact_id,
        state: row.state,
        space: row.space,
        workarea: row.workarea,
        ts: row.ts,
        answers: store.relations.promotedAnswersDerivedFrom(row.artifact_id),
      })),
      questions_truncated: questions.length > limit,
    };
  },
});
