import { z } from 'zod';
import { defineVerb } from '../define-verb.js';
import { limitParam, spaceParam } from '../param-types.js';
import { requireSpace } from '../../projections/require-space.js';
import { QUARANTINE_STATES } from '../../domain/states.js';
import type { ArtifactRow } from '../../projections/artifact-reads.js';

const WAITING = [...QUARANTINE_STATES];
const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

/**
 * An agent's own open work in one answer: the work areas it wrote into (its part open or
 * complete), its rows still waiting for review with what each waits for, and the questions
 * it asked with how many promoted answers each has. Only the caller's own: nobody else's
 * work is read here, so no grant is asked.
 */
export const workVerb = defineVerb({
  name: 'gv.work',
  role: 'agent',
  summary: "Your own open work: your part of each work area (open or complete), your rows waiting for review and what each waits for, the questions you asked.",
  params: z.strictObject({ space: spaceParam.optional(), limit: limitParam(200).optional() }),
  handler({ gate, caller }, p) {
    const limit = p.limit ?? 50;
    if (p.space !== undefined) requireSpace(gate, p.space);
    const inSpace = p.space === undefined ? '' : ' AND space = ?';
    const spaceArg = p.space === undefined ? [] : [p.space];
    const me = caller.identity;

    const areas = (
      gate.db
        .prepare(
          `SELECT w.space, w.workarea, w.first_ts, w.completed_ts,
             (SELECT count(*) FROM artifacts a WHERE a.space = w.space AND a.workarea = w.workarea AND a.writer_identity = w.identity) AS rows,
             (SELECT count(*) FROM artifacts a WHERE a.space = w.space AND a.workarea = w.workarea AND a.writer_identity = w.identity
                AND a.state IN (${marks(WAITING.length)})) AS waiting,
             (SELECT max(a.ts) FROM artifacts a WHERE a.space = w.space AND a.workarea = w.workarea AND a.writer_identity = w.identity) AS last_write
           FROM workarea_parts w WHERE w.identity = ?${inSpace.replace('space', 'w.space')}
           ORDER BY w.completed_ts IS NOT NULL, w.first_ts DESC LIMIT ?`,
        )
        .all(...WAITING, me, ...spaceArg, limit + 1) as Array<{ space: string; workarea: string; first_ts: number; completed_ts: number | null; rows: number; waiting: number; last_write: number | null }>
    ).map((a) => ({
      space: a.space,
      workarea: a.workarea,
      state: a.completed_ts === null ? 'open' : 'complete',
      rows: a.rows,
      waiting: a.waiting,
      first_write: a.first_ts,
      last_write: a.last_write,
      ...(a.completed_ts === null ? {} : { completed_at: a.completed_ts }),
    }));

    const held = gate.db
      .prepare(`SELECT * FROM artifacts WHERE writer_identity = ? AND state IN (${marks(WAITING.length)})${inSpace} ORDER BY ts, rowid LIMIT ?`)
      .all(me, ...WAITING, ...spaceArg, limit + 1) as ArtifactRow[];
    const questions = gate.db
      .prepare(`SELECT * FROM artifacts WHERE writer_identity = ? AND kind = 'question'${inSpace} ORDER BY ts, rowid LIMIT ?`)
      .all(me, ...spaceArg, limit + 1) as ArtifactRow[];
    const answers = gate.db.prepare(
      `SELECT count(*) FROM derivations d JOIN artifacts a ON a.artifact_id = d.child
       WHERE d.parent = ? AND a.kind = 'answer' AND a.state IN ('ACTIVE', 'SUPERSEDED')`,
    ).pluck();

    return {
      identity: me,
      areas: areas.slice(0, limit),
      areas_truncated: areas.length > limit,
      held: held.slice(0, limit).map((row) => {
        const waits = gate.review.board.picture(row).waitsFor;
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
        answers: answers.get(row.artifact_id) as number,
      })),
      questions_truncated: questions.length > limit,
    };
  },
});
