import type { Log } from '../log.js';
import { BinaryPartition } from './binary-partition.js';
import { CodeScanPool, type StoredVectors } from './code-scan-pool.js';
import type { RankedRow } from './fusion.js';
import { codeWords } from '../../workers/embed/quantize.js';
import { isSearchable, type Placement, type VectorIndex } from './vector-index.js';

/**
 * Partitions of at most this many rows are searched by sqlite-vec's exact KNN, which scans
 * every vector of the partition (about 0.55 us per int8[512] row on the 2-core machine, so
 * about 1.1 ms here); larger ones by the Hamming kernel over binary codes held in memory,
 * then an exact re-rank of the nearest few hundred (about 1 ms whatever the size, plus
 * ~4 ns per row for the scan). bench/recall.js measures both paths.
 */
export const BRUTE_FORCE_MAX = 2048;

/** A stored row moving: from where it was (null: it was not stored) to where it is now (null: removed). */
export interface PlacementChange {
  rowid: number;
  from: Placement | null;
  to: Placement | null;
  code: Uint8Array;
}

/**
 * How many vectors each partition holds, and the binary codes of the partitions above
 * BRUTE_FORCE_MAX in memory. It changes only by `apply`, after the SQL write it mirrors
 * has committed, so memory never holds a placement the database does not.
 */
export class PartitionCodes {
  private readonly counts = new Map<string, number>();
  private readonly loaded = new Map<string, BinaryPartition>();
  private readonly words: number;
  /** Started with the first large partition: a gate whose partitions are all small needs no thread for it. */
  private scans: CodeScanPool | null = null;

  constructor(
    private readonly index: VectorIndex,
    private readonly log: Log,
    private readonly stored: StoredVectors,
  ) {
    this.words = codeWords(index.dims);
  }

  /** Reads the partition sizes and loads the codes of every large searchable partition. */
  load(): void {
    this.counts.clear();
    this.loaded.clear();
    for (const [part, n] of this.index.partitionCounts()) this.counts.set(part, n);
    for (const [part, n] of this.counts) if (n > BRUTE_FORCE_MAX && isSearchable(part)) this.materialize(part);
  }

  count(part: string): number {
    return this.counts.get(part) ?? 0;
  }

  /** Vectors in partitions a search can reach (served spaces and held rows). */
  get searchable(): number {
    let n = 0;
    for (const [part, count] of this.counts) if (isSearchable(part)) n += count;
    return n;
  }

  /**
   * For a partition large enough to hold binary codes: of the `pool` codes nearest the
   * query's (flags meeting `mask` skipped), the `keep` rows whose stored vectors are nearest
   * `vector`, best first, with how many candidates there were; scanned and re-ranked in the
   * code-scan worker, on its way when this returns. Undefined for a partition searched exactly.
   */
  nearest(
    part: string,
    code: Uint8Array,
    vector: Float32Array,
    mask: number,
    pool: number,
    keep: number,
  ): Promise<{ rows: RankedRow[]; candidates: number }> | undefined {
    const binary = this.loaded.get(part);
    if (binary === undefined) return undefined;
    this.scans ??= new CodeScanPool(this.stored);
    return this.scans.nearest(binary, code, vector, mask, pool, keep);
  }

  async close(): Promise<void> {
    await this.scans?.close();
    this.scans = null;
  }

  apply(changes: readonly PlacementChange[]): void {
    for (const c of changes) {
      if (c.from) {
        this.counts.set(c.from.part, this.count(c.from.part) - 1);
        if (c.from.part !== c.to?.part) this.loaded.get(c.from.part)?.remove(c.rowid);
      }
      if (c.to) {
        this.counts.set(c.to.part, this.count(c.to.part) + 1);
        const binary = this.loaded.get(c.to.part);
        if (binary) binary.put(c.rowid, c.code, c.to.flags);
        else if (this.count(c.to.part) > BRUTE_FORCE_MAX && isSearchable(c.to.part)) this.materialize(c.to.part);
      }
    }
  }

  private materialize(part: string): void {
    const started = performance.now();
    const binary = new BinaryPartition(this.words);
    for (const rows of this.index.partitionCodes(part)) {
      for (const r of rows) binary.put(r.rowid, new Uint8Array(r.code.buffer, r.code.byteOffset, r.code.byteLength), r.flags);
    }
    this.loaded.set(part, binary);
    if (binary.size > 50_000) {
      this.log.info(`vector recall: ${binary.size} codes of partition ${part} loaded in ${Math.round(performance.now() - started)} ms`);
    }
  }
}
