import type { Caller } from '../access/caller.js';
import type { Gate } from '../gate.js';
import type { AnswerBody } from '../domain/body-forms.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { invalidParams } from '../gate-error.js';
import { questionStanding } from './question-state.js';

const withPrefix = (id: string | undefined) => (id === undefined ? undefined : id.startsWith('sha256:') ? id : `sha256:${id}`);

/** What an admitted answer/1 row records in its ingest event, and whether it ends its question. */
export interface AnswerMove {
  answer: { question: string; replaces?: string; cancels?: string };
  endsQuestion: boolean;
}

/**
 * The answer rules of gv.ingest (spec 2) beyond the body's form, for a question the writer
 * may read, named first in derives_from: refused while the question is held or once it is
 * ended; one standing answer per answerer unless `replaces` names it; `cancels` withdraws
 * the answerer's own standing answer, or, from the question's asker and naming the question,
 * ends the question. Runs before the scan and again inside the write, so two answers racing
 * cannot both stand.
 */
export function checkAnswer(gate: Gate, caller: Caller, question: ArtifactRow, body: AnswerBody): AnswerMove {
  const standing = questionStanding(gate, question, gate.clock.now());
  if (standing.state === 'held') {
    throw invalidParams('the question is held: it takes answers once it is promoted', { field: 'derives_from', question_state: 'held' });
  }
  if (standing.state === 'ended') {
    throw invalidParams(`the question is ended (${standing.reason}): it takes no more answers`, {
      field: 'derives_from',
      question_state: 'ended',
      ended: standing.reason,
    });
  }
  const replaces = withPrefix(body.replaces);
  const cancels = withPrefix(body.cancels);
  const answer = { question: question.artifact_id, ...(replaces === undefined ? {} : { replaces }), ...(cancels === undefined ? {} : { cancels }) };
  if (replaces !== undefined && cancels !== undefined) throw invalidParams('an answer replaces or cancels, not both', { field: 'cancels' });
  if (cancels === question.artifact_id) {
    if (caller.identity !== question.writer_identity) {
      throw invalidParams('only the asker ends a question: cancels names the question only in its asker\'s answer/1', { field: 'cancels' });
    }
    return { answer, endsQuestion: true };
  }
  const own = standing.answers.standingOf(caller.identity).map((a) => a.artifact_id);
  for (const [field, named] of [['replaces', replaces], ['cancels', cancels]] as const) {
    if (named !== undefined && !own.includes(named)) {
      throw invalidParams(`${field} names no standing answer of yours to this question`, { field });
    }
  }
  if (replaces === undefined && cancels === undefined && own.length > 0) {
    throw invalidParams('you have a standing answer to this question: name it in replaces, or withdraw it with cancels', {
      field: 'content',
      standing: own[0],
    });
  }
  return { answer, endsQuestion: false };
}
