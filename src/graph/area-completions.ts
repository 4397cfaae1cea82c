import type { Caller } from '../access/caller.js';
import { identityShown } from '../access/workarea-visibility.js';
import type { Gate } from '../gate.js';
import { WorkareaReads } from '../projections/workarea-reads.js';

/**
 * The completed parts of one work area, oldest completion first. Below reviewer a part is
 * told only for an identity the viewer may see there (itself, or a writer of a promoted
 * row): a completion by a writer of held rows alone would tell that those rows exist.
 */
export function areaCompletions(gate: Gate, caller: Caller, space: string, workarea: string) {
  return gate.store.workareas
    .partsOfSpace(space)
    .filter((p) => p.workarea === workarea && p.completed_ts !== null)
    .filter((p) => identityShown(gate, caller, space, workarea, p.identity))
    .sort((a, b) => a.completed_ts! - b.completed_ts! || (a.identity < b.identity ? -1 : 1))
    .map((p) => ({ writer_identity: p.identity, ts: p.completed_ts! }));
}
