import { quarantineFull } from '../../gate-error.js';
import type { House } from '../house.js';

/** Refuses -32006 when `adding` more held rows would pass quarantine.max_depth. */
export function refuseFullQuarantine(house: Pick<House, 'store' | 'config'>, adding = 1): void {
  const held = house.store.artifacts.countHeld();
  if (held + adding > house.config.quarantine.max_depth) throw quarantineFull(house.config.quarantine.retry_after_ms);
}
