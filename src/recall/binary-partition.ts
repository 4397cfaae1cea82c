import { hammingKernel, type HammingKernel } from './hamming-kernel.js';

/** A flag of a slot whose row left the partition; the slot waits for reuse. */
export const GONE = 0x80;

const PAGE = 65536;
const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * The two-plane sign codes of one large partition, held in WebAssembly memory so the
 * kernel scans them in place. A search keeps the slots nearest the query by the kernel's
 * distance (a histogram of distances gives the cut without sorting a million numbers);
 * the caller re-ranks those few by their stored int8 vectors. Flags travel beside the
 * codes, so provisional and superseded rows are skipped inside the scan rather than
 * filtered out of a too-short answer afterwards.
 */
export class BinaryPartition {
  private capacity = 0;
  private used = 0;
  private live = 0;
  private memory!: WebAssembly.Memory;
  private kernel!: HammingKernel;
  private layout!: { codes: number; flags: number; dist: number; hist: number; query: number; out: number };
  private rowids = new Float64Array(0);
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private readonly bytes: number;

  constructor(readonly words: number) {
    // Two bit-planes of `words` 64-bit words each.
    this.bytes = words * 16;
    this.grow(1024);
  }

  get size(): number {
    return this.live;
  }

  has(rowid: number): boolean {
    return this.slotOf.has(rowid);
  }

  /** Adds or replaces the row's code and flags. */
  put(rowid: number, code: Uint8Array, flags: number): void {
    if (code.byteLength !== this.bytes) throw new Error(`a code of ${code.byteLength} bytes in a partition of ${this.bytes}-byte codes`);
    let slot = this.slotOf.get(rowid);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.used;
      if (slot === this.used) {
        if (this.used === this.capacity) this.grow(this.capacity * 2);
        this.used++;
      }
      this.slotOf.set(rowid, slot);
      this.rowids[slot] = rowid;
      this.live++;
    }
    new Uint8Array(this.memory.buffer, this.layout.codes + slot * this.bytes, this.bytes).set(code);
    new Uint8Array(this.memory.buffer)[this.layout.flags + slot] = flags & ~GONE;
  }

  setFlags(rowid: number, flags: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot !== undefined) new Uint8Array(this.memory.buffer)[this.layout.flags + slot] = flags & ~GONE;
  }

  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined) return;
    new Uint8Array(this.memory.buffer)[this.layout.flags + slot] = GONE;
    this.slotOf.delete(rowid);
    this.free.push(slot);
    this.live--;
  }

  /**
   * The rowids of about `want` slots nearest to `query` (every slot at the cut distance is
   * kept, up to twice `want`), skipping slots whose flags meet `mask`.
   */
  nearest(query: Uint8Array, mask: number, want: number): number[] {
    const { codes, flags, dist, hist, query: q, out } = this.layout;
    const bits = this.bytes * 8;
    new Uint8Array(this.memory.buffer, q, this.bytes).set(query);
    new Uint32Array(this.memory.buffer, hist, bits + 1).fill(0);
    this.kernel.scan(codes, flags, this.used, this.words, q, mask | GONE, dist, hist);
    const counts = new Uint32Array(this.memory.buffer, hist, bits + 1);
    let cut = -1;
    for (let seen = 0; cut < bits && seen < want; ) seen += counts[++cut]!;
    if (cut < 0) return [];
    const found = this.kernel.collect(dist, this.used, cut, out);
    const slots = new Uint32Array(this.memory.buffer, out, found);
    let chosen: ArrayLike<number> = slots;
    if (found > 2 * want) {
      // Many ties at the cut: keep the strictly nearer ones, then tied ones in slot order.
      const d = new Uint16Array(this.memory.buffer, dist, this.used);
      chosen = Array.from(slots).sort((a, b) => d[a]! - d[b]! || a - b).slice(0, 2 * want);
    }
    const rowids: number[] = [];
    for (let i = 0; i < chosen.length; i++) rowids.push(this.rowids[chosen[i]!]!);
    return rowids;
  }

  /** Moves to a memory of `capacity` slots: codes, flags, then the kernel's scratch (distances, histogram, query, output). */
  private grow(capacity: number): void {
    const layout = { codes: 0, flags: 0, dist: 0, hist: 0, query: 0, out: 0 };
    layout.flags = align8(capacity * this.bytes);
    layout.dist = align8(layout.flags + capacity);
    layout.hist = align8(layout.dist + capacity * 2);
    layout.query = align8(layout.hist + (this.bytes * 8 + 1) * 4);
    layout.out = align8(layout.query + this.bytes);
    const end = layout.out + capacity * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(end / PAGE) });
    if (this.capacity > 0) {
      const to = new Uint8Array(memory.buffer);
      to.set(new Uint8Array(this.memory.buffer, this.layout.codes, this.used * this.bytes), layout.codes);
      to.set(new Uint8Array(this.memory.buffer, this.layout.flags, this.used), layout.flags);
    }
    const rowids = new Float64Array(capacity);
    rowids.set(this.rowids.subarray(0, this.used));
    this.memory = memory;
    this.kernel = hammingKernel(memory);
    this.layout = layout;
    this.rowids = rowids;
    this.capacity = capacity;
  }
}
