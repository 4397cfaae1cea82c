import { Piscina } from 'piscina';
import type { CodeScanTask } from '../../workers/vector-scan/pool-entry.js';
import type { BinaryPartition } from './binary-partition.js';

/**
 * One worker thread that scans large partitions' binary codes in place (their memory is
 * shared), so a hybrid recall's vector scan runs beside its lexical ranking on the main
 * thread instead of after it. The task is posted when nearest() is called, before it
 * returns, so a caller that starts the scan and then does other work overlaps the two.
 */
export class CodeScanPool {
  private readonly pool = new Piscina({
    filename: new URL('../../workers/vector-scan/pool-entry.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
  });

  async nearest(binary: BinaryPartition, query: Uint8Array, mask: number, want: number): Promise<number[]> {
    const task: CodeScanTask = { target: binary.target(), query, mask, want };
    const slots = (await this.pool.run(task)) as Uint32Array;
    return binary.rowidsOf(slots);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
