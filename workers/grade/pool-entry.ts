/**
 * Piscina worker entry for the grade pool: reviewer calls in, checked outcomes out. The
 * local reviewer is pure computation; remote backends are HTTP from here, their answers
 * parsed and validated here, so model output never reaches the main thread unchecked.
 * It never touches SQLite.
 */
import type { BackendCheck, GradeOutcome, GradeTask } from './grade-task.js';
import { localReview } from './local-reviewer.js';
import { remoteGrade } from './model-call.js';
import { checkBackend } from './backend-check.js';
import { lowerThisThread } from '../thread-priority.js';

// The journal writer and the sockets win a contended core (workers/thread-priority.ts).
lowerThisThread();

export default async function gradeTask(task: GradeTask): Promise<GradeOutcome[] | BackendCheck> {
  if (task.type === 'check') return checkBackend(task.backend);
  return Promise.all(
    task.calls.map(async (call): Promise<GradeOutcome> => {
      if (call.backend.kind === 'local') {
        const started = performance.now();
        const answer = localReview(call.input, call.stance);
        return { ok: true, answer, cost_tokens: 0, model: 'local', ms: Math.round(performance.now() - started) };
      }
      return remoteGrade(call.backend, call.stance, call.input);
    }),
  );
}
