import { markedWith } from '../projections/finding-marks.js';
import type { Caller } from '../access/caller.js';
import { producerOf } from '../projections/artifact-reads.js';
import { namesPerson, personNameKeys } from './addressed-names.js';
import { questionStanding } from './question-state.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';
import type { Clock } from '../clock.js';

export const OPEN_QUESTIONS_SHOWN = 50;

/**
 * The questions waiting for people (state with_people) that the caller may read: those
 * whose names name the caller first, then the rest, each group oldest routing first.
 * A held question is never among them: only promoted questions are routed.
 */
export function openQuestionsFor(house: { readonly store: Store; readonly access: AccessPart; readonly clock: Clock }, caller: Caller) {
  const now = house.clock.now();
  const keys = personNameKeys(house.store.people, caller);
  const open = [];
  for (const routing of house.store.questions.routedTo('with_people')) {
    const row = house.store.artifacts.byId(routing.artifact_id);
    if (row === undefined || !house.access.visibility.canRead(caller, row)) continue;
    const standing = questionStanding(house, row, now);
    if (standing.state !== 'with_people') continue;
    const addressedTo = row.addressed_to === null ? null : (JSON.parse(row.addressed_to) as { names?: string[]; kinds?: string[] });
    open.push({
      question: row.artifact_id,
      body: house.store.artifacts.servedBody(row),
      ...markedWith(house.store.artifacts.findingMarks(row)),
      space: row.space,
      workarea: row.workarea,
      producer: producerOf(row),
      asker: row.writer_identity,
      addressed_to: addressedTo,
      named: namesPerson(addressedTo?.names ?? [], keys),
      promoted_at: row.promoted_ts,
      reason: standing.reason,
      wait_minutes: standing.wait_minutes,
      minutes_left: standing.minutes_left,
    });
  }
  // A stable sort keeps the oldest routing first within each group.
  open.sort((a, b) => Number(b.named) - Number(a.named));
  return { questions: open.slice(0, OPEN_QUESTIONS_SHOWN), questions_truncated: open.length > OPEN_QUESTIONS_SHOWN };
}
