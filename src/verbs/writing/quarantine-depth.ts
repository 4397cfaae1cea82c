import type { Gate } from '../../gate.js';
import { quarantineFull } from '../../gate-error.js';

/** Refuses -32006 when `adding` more held rows would pass quarantine.max_depth. */
export function refuseFullQuarantine(gate: Gate, adding = 1): void {
  const held = gate.store.artifacts.countHeld();
  if (held + adding > gate.config.quarantine.max_depth) throw quarantineFull(gate.config.quarantine.retry_after_ms);
}
