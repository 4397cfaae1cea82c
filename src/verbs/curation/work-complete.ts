import type { Gate } from '../../gate.js';
import { lifecycle } from '../../gate-error.js';
import { WorkareaReads } from '../../projections/workarea-reads.js';

/** A completed part takes no more writes from its identity (spec 1 States: no reopen). */
export function refuseCompletedPart(gate: Gate, identity: string, space: string, workarea: string): void {
  const part = WorkareaReads.of(gate.db).part(space, workarea, identity);
  if (part === undefined || part.completed_seq === null) return;
  throw lifecycle(`your part of work area ${workarea} in space ${space} is complete; it takes no more writes`, 'work_complete');
}
