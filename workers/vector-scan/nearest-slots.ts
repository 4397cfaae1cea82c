import { hammingKernel, writeScanForm, type HammingKernel } from './hamming-kernel.js';

/** A flag of a slot whose row left the partition; the slot waits for reuse. */
export const GONE = 0x80;

/** Where a partition's codes, flags and the kernel's scratch lie in its memory. */
export interface PartitionLayout {
  codes: number;
  flags: number;
  dist: number;
  hist: number;
  query: number;
  out: number;
}

/**
 * What a scan reads: a partition's shared memory, its layout, and how many slots were in
 * use when the scan was asked for. Plain data, so it crosses to the scan worker as is (a
 * shared WebAssembly.Memory is shared, never copied).
 */
export interface ScanTarget {
  memory: WebAssembly.Memory;
  layout: PartitionLayout;
  /** Each slot's rowid, in shared memory too, so the worker re-ranks by rowid. */
  rowids: Float64Array<ArrayBufferLike>;
  used: number;
  words: number;
}

const kernels = new WeakMap<WebAssembly.Memory, HammingKernel>();

/**
 * The slots of about `want` codes nearest to `query` (every slot at the cut distance is
 * kept, up to twice `want`), skipping slots whose flags meet `mask`. A histogram of the
 * kernel's distances gives the cut without sorting a million numbers.
 */
export function nearestSlots(target: ScanTarget, query: Uint8Array, mask: number, want: number): Uint32Array {
  const { memory, layout, used, words } = target;
  let kernel = kernels.get(memory);
  if (kernel === undefined) kernels.set(memory, (kernel = hammingKernel(memory, words)));
  const bytes = words * 16;
  const bits = bytes * 8;
  writeScanForm(query, new Uint8Array(memory.buffer, layout.query, bytes));
  new Uint32Array(memory.buffer, layout.hist, bits + 1).fill(0);
  kernel.scan(layout.codes, layout.flags, used, layout.query, mask | GONE, layout.dist, layout.hist);
  const counts = new Uint32Array(memory.buffer, layout.hist, bits + 1);
  let cut = -1;
  for (let seen = 0; cut < bits && seen < want; ) seen += counts[++cut]!;
  if (cut < 0) return new Uint32Array(0);
  const found = kernel.collect(layout.dist, used, cut, layout.out);
  const slots = new Uint32Array(memory.buffer, layout.out, found);
  if (found <= 2 * want) return slots.slice();
  // Many ties at the cut: keep the strictly nearer ones, then tied ones in slot order.
  const d = new Uint16Array(memory.buffer, layout.dist, used);
  return Uint32Array.from(Array.from(slots).sort((a, b) => d[a]! - d[b]! || a - b).slice(0, 2 * want));
}
