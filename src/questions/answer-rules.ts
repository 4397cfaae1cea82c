import type { Caller } from '../access/caller.js';
import type { AnswerBody } from '../domain/body-forms.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import { invalidParams } from '../gate-error.js';
import { questionStanding } from './question-state.js';
import type { Store } from '../store/store.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { Clock } from '../clock.js';

const withPrefix = (id: string | undefined) => (id === undefined ? undefined : id.startsWith('sha256:') ? id : `sha256:${id}`);

/** What an admitted answer/1 row records in its ingest event, and whether it ends its question or refers it to people. */
export interface AnswerMove {
  answer: { question: string; replaces?: string; cancels?: string; refer?: true };
  endsQuestion: boolean;
  /** A referral by the crew the question is with: the crew (space) and the member's slot. */
  refers: { crew: string; slot: string } | null;
}

/** -32602 reason not_the_answering_crew (docs/protocol.md#gvingest). */
const notTheCrew = (why: string) => invalidParams(why, { reason: 'not_the_answering_crew', field: 'derives_from' });

/**
 * The answer rules of gv.ingest (docs/protocol.md#gvingest) beyond the body's form, for a question the writer
 * may read, named first in derives_from: refused while the question is held or once it is
 * ended; one standing answer per answerer unless `replaces` names it; `cancels` withdraws
 * the answerer's own standing answer, or, from the question's asker and naming the question,
 * ends the question. While the question is with a crew, only the crew's member keys answer it
 * (not_the_answering_crew), as one answerer: one standing answer or referral for the whole
 * crew; only they refer it (`refer: true`). Runs before the scan and again inside the
 * write, so two answers racing cannot both stand.
 */
export function checkAnswer(house: { readonly store: Store; readonly crews: CrewsPart; readonly clock: Clock }, caller: Caller, question: ArtifactRow, body: AnswerBody): AnswerMove {
  const standing = questionStanding(house, question, house.clock.now());
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
  const answer = {
    question: question.artifact_id,
    ...(replaces === undefined ? {} : { replaces }),
    ...(cancels === undefined ? {} : { cancels }),
    ...(body.refer === true ? { refer: true as const } : {}),
  };
  if (replaces !== undefined && cancels !== undefined) throw invalidParams('an answer replaces or cancels, not both', { field: 'cancels' });
  if (body.refer === true && cancels !== undefined) throw invalidParams('a referral withdraws nothing: send cancels without refer', { field: 'cancels' });
  if (cancels === question.artifact_id) {
    if (caller.identity !== question.writer_identity) {
      throw invalidParams('only the asker ends a question: cancels names the question only in its asker\'s answer/1', { field: 'cancels' });
    }
    return { answer, endsQuestion: true, refers: null };
  }
  // While a crew holds the question, its member keys alone answer or refer it, and as one answerer.
  const crew = standing.state === 'with_crew' ? standing.crew : null;
  const member = house.crews.runners.crewOf(caller.identity);
  const ofTheCrew = crew !== null && member?.space === crew;
  if (crew !== null && !ofTheCrew) throw notTheCrew(`the question is with crew ${crew}: only its member keys answer it until it goes to people`);
  if (body.refer === true && !ofTheCrew) throw notTheCrew('only the crew a question is routed to refers it to people');
  const own = (ofTheCrew ? standing.answers.standingOfAny(house.crews.runners.everyMember(crew)) : standing.answers.standingOf(caller.identity)).map((a) => a.artifact_id);
  for (const [field, named] of [['replaces', replaces], ['cancels', cancels]] as const) {
    if (named !== undefined && !own.includes(named)) {
      throw invalidParams(`${field} names no standing answer of yours to this question`, { field });
    }
  }
  if (replaces === undefined && cancels === undefined && own.length > 0) {
    throw invalidParams(`${ofTheCrew ? 'your crew has' : 'you have'} a standing answer or referral to this question: name it in replaces, or withdraw it with cancels`, {
      field: 'content',
      standing: own[0],
    });
  }
  return { answer, endsQuestion: false, refers: body.refer === true && ofTheCrew ? { crew: crew!, slot: member!.slot } : null };
}
