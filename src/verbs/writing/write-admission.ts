import type { Caller } from '../../access/caller.js';
import { requireSpace } from '../../store/require-space.js';
import { refuseCompletedPart } from '../curation/work-complete.js';
import { refuseFullQuarantine } from './quarantine-depth.js';
import type { House } from '../house.js';

/**
 * Whether a caller may write new rows into its part of a work area, asked in the order every
 * ingest door asks it: the space exists; the caller contributes to it and its part is not
 * complete; quarantine has room for the rows. A door checks its own parameters between the
 * first step and the second, and answers a duplicate (writing nothing) between the second and
 * the third, so the steps are asked one at a time, in this order.
 */
export interface WriteAdmission {
  /** The space, known to exist. */
  readonly space: string;
  /** Refuses without the contribute capability on the space, then when the caller's part is complete. */
  contributes(): void;
  /** Refuses when `adding` more held rows would pass quarantine.max_depth. */
  room(adding?: number): void;
  /** Inside the write: a completion may have landed during the scan, so the part is asked again. */
  stillOpen(): void;
}

/** Refuses at once when the space does not exist; the later steps are the answer's. */
export function admitWrite(house: Pick<House, 'store' | 'access' | 'config'>, caller: Caller, target: { space: string; workarea: string }): WriteAdmission {
  const space = requireSpace(house, target.space);
  const stillOpen = () => refuseCompletedPart(house, caller.identity, space, target.workarea);
  return {
    space,
    contributes() {
      house.access.capabilities.require(caller, space, 'contribute');
      stillOpen();
    },
    room(adding = 1) {
      refuseFullQuarantine(house, adding);
    },
    stillOpen,
  };
}
