import type { Piscina } from 'piscina';
import type { CodeScanAnswer, CodeScanTask, StoredVectors } from '../../workers/vector-scan/pool-entry.js';
import type { BinaryPartition } from './binary-partition.js';
import type { RankedRow } from './fusion.js';
import { newPool } from '../threads.js';

export type { StoredVectors } from '../../workers/vector-scan/pool-entry.js';

/**
 * One worker thread that scans large partitions' binary codes in place (their memory is
 * shared) and re-ranks the nearest candidates by their stored vectors, so a hybrid recall's
 * whole vector list is made beside its lexical ranking on the main thread instead of after
 * it. The task is posted when nearest() is called, before it returns, so a caller that
 * starts the scan and then does other work overlaps the two.
 */
export class CodeScanPool {
  private readonly pool: Piscina;

  constructor(stored: StoredVectors) {
    this.pool = newPool({
      entry: new URL('../../workers/vector-scan/pool-entry.js', import.meta.url),
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Infinity,
      workerData: stored,
    });
  }

  /** The `keep` rows nearest `vector` among the `pool` whose codes are nearest `code`, best first. */
  async nearest(
    binary: BinaryPartition,
    code: Uint8Array,
    vector: Float32Array,
    mask: number,
    pool: number,
    keep: number,
  ): Promise<{ rows: RankedRow[]; candidates: number }> {
    const task: CodeScanTask = { target: binary.target(), query: code, vector, mask, pool, keep };
    const answer = (await this.pool.run(task)) as CodeScanAnswer;
    const rows: RankedRow[] = [];
    for (let i = 0; i < answer.rowids.length; i++) rows.push({ rowid: answer.rowids[i]!, score: answer.scores[i]! });
    return { rows, candidates: answer.candidates };
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
