import { MAX_PAGES, writeScanForm } from '../../workers/vector-scan/hamming-kernel.js';
import { GONE, nearestSlots, type PartitionLayout, type ScanTarget } from '../../workers/vector-scan/nearest-slots.js';

export { GONE } from '../../workers/vector-scan/nearest-slots.js';

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
  private layout!: PartitionLayout;
  private rowids: Float64Array<ArrayBufferLike> = new Float64Array(0);
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
    writeScanForm(code, new Uint8Array(this.memory.buffer, this.layout.codes + slot * this.bytes, this.bytes));
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

  /** What a scan of this partition reads now (nearestSlots, in the scan worker). */
  target(): ScanTarget {
    return { memory: this.memory, layout: this.layout, rowids: this.rowids, used: this.used, words: this.words };
  }

  /** The rowids of slots a scan found. A slot reused since then names its new row, which the caller checks like any other. */
  rowidsOf(slots: Uint32Array): number[] {
    const rowids: number[] = [];
    for (let i = 0; i < slots.length; i++) rowids.push(this.rowids[slots[i]!]!);
    return rowids;
  }

  /** The rowids of about `want` slots nearest to `query`, scanned on this thread (see nearestSlots). */
  nearest(query: Uint8Array, mask: number, want: number): number[] {
    return this.rowidsOf(nearestSlots(this.target(), query, mask, want));
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
    const pages = Math.ceil(end / PAGE);
    if (pages > MAX_PAGES) throw new Error(`a partition of ${capacity} slots needs more than the 4 GiB a WebAssembly memory holds`);
    // Shared, so the scan worker reads the codes where this thread writes them.
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    if (this.capacity > 0) {
      const to = new Uint8Array(memory.buffer);
      to.set(new Uint8Array(this.memory.buffer, this.layout.codes, this.used * this.bytes), layout.codes);
      to.set(new Uint8Array(this.memory.buffer, this.layout.flags, this.used), layout.flags);
    }
    const rowids = new Float64Array(new SharedArrayBuffer(capacity * Float64Array.BYTES_PER_ELEMENT));
    rowids.set(this.rowids.subarray(0, this.used));
    this.memory = memory;
    this.layout = layout;
    this.rowids = rowids;
    this.capacity = capacity;
  }
}
