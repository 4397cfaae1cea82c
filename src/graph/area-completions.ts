import type { Caller } from '../access/caller.js';
import { identityShown } from '../access/workarea-visibility.js';
import type { Store } from '../store/store.js';
import type { AccessPart } from '../access/access-part.js';

/**
 * The completed parts of one work area, oldest completion first. Below reviewer a part is
 * told only for an identity the viewer may see there (itself, or a writer of a promoted
 * row): a completion by a writer of held rows alone would tell that those rows exist.
 */
export function areaCompletions(house: { readonly store: Store; readonly access: AccessPart }, caller: Caller, space: string, workarea: string) {
  return house.store.workareas
    .partsOfSpace(space)
    .filter((p) => p.workarea === workarea && p.completed_ts !== null)
    .filter((p) => identityShown(house, caller, space, workarea, p.identity))
    .sort((a, b) => a.completed_ts! - b.completed_ts! || (a.identity < b.identity ? -1 : 1))
    .map((p) => ({ writer_identity: p.identity, ts: p.completed_ts! }));
}
