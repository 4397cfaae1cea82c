/**
 * Piscina worker entry for the code-scan pool: scans one large vector partition's binary
 * codes, which live in a shared WebAssembly memory the main thread writes, and answers the
 * nearest slots. It runs while the main thread ranks the lexical list of the same hybrid
 * recall. Pure: memory in, slot numbers out; it never touches SQLite.
 */
import { nearestSlots, type ScanTarget } from '../../src/recall/nearest-slots.js';

export interface CodeScanTask {
  target: ScanTarget;
  query: Uint8Array;
  mask: number;
  want: number;
}

export default function scanCodes(task: CodeScanTask): Uint32Array {
  return nearestSlots(task.target, task.query, task.mask, task.want);
}
