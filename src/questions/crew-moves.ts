import type { QuestionRouting } from '../projections/question-reads.js';
import { questionStanding } from './question-state.js';
import type { CrewsPart } from '../crews/crews-part.js';
import type { Store } from '../store/store.js';
import type { GateConfig } from '../config/keys.js';
import type { Clock } from '../clock.js';

type Move = 'wait_over' | 'crew_gone';

/** Why a question still with its crew must go to people now, or null while it may stay. */
function moveOf(house: { readonly crews: CrewsPart }, routing: QuestionRouting, now: number): Move | null {
  if (routing.wait_until !== null && routing.wait_until <= now) return 'wait_over';
  const assignment = routing.crew === null ? undefined : house.crews.runners.assignment(routing.crew);
  if (assignment === undefined || !house.crews.runners.heard(assignment.runner)) return 'crew_gone';
  return null;
}

/**
 * Sends to people the questions a crew holds whose wait ran out on the gate's clock
 * (`question-wait-over {from: with_crew, to: with_people, wait_minutes}`, reason wait_over)
 * or whose crew is gone: released, or its runner silent past `runners.gone_seconds`
 * (`question-routed {route: with_people, reason: crew_gone}`). The people's wait starts
 * then. `gate serve` runs this every minute beside the other waits. Returns how many moved.
 */
export async function crewQuestionsMoved(house: { readonly store: Store; readonly crews: CrewsPart; readonly config: GateConfig; readonly clock: Clock }): Promise<{ wait_over: number; crew_gone: number }> {
  const reads = house.store.questions;
  const due = () => {
    const now = house.clock.now();
    return reads
      .routedTo('with_crew')
      .map((routing) => ({ routing, move: moveOf(house, routing, now) }))
      .filter((m): m is { routing: QuestionRouting; move: Move } => m.move !== null);
  };
  const moved = { wait_over: 0, crew_gone: 0 };
  if (due().length === 0) return moved;
  return house.store.writer.write(() => {
    const now = house.clock.now();
    const wait = house.config.questions.people_wait_minutes;
    for (const { routing, move } of due()) {
      const row = house.store.artifacts.byId(routing.artifact_id);
      if (row === undefined || questionStanding(house, row, now).state !== 'with_crew') continue;
      const where = { artifact_id: row.artifact_id, space: row.space, workarea: row.workarea };
      if (move === 'wait_over') {
        house.store.journal.append('question-wait-over', null, { ...where, from: 'with_crew', to: 'with_people', wait_minutes: wait });
      } else {
        house.store.journal.append('question-routed', null, { ...where, route: 'with_people', reason: 'crew_gone', wait_minutes: wait });
      }
      moved[move] += 1;
    }
    return moved;
  });
}
