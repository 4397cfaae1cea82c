import type { ArchiveLimits } from '../workers/bundle/archive-limits.js';
import type { BundleTask, PackedInspection } from '../workers/bundle/pool-entry.js';
import type { Classification } from '../workers/bundle/skill-layout.js';
import { BoundedPool, ownBuffer, type BoundedPoolOptions } from './bounded-pool.js';
import type { QueueReading } from './queue-reading.js';

export interface BundleMember {
  path: string;
  content_hash: string;
  size_bytes: number;
  classification: Classification | null;
  bytes: Uint8Array;
}

export type ArchiveInspection =
  | { valid: true; archive_hash: string; archive_size: number; entries: number; members: BundleMember[]; peak_buffered_bytes: number }
  | { valid: false; detail: string; archive_hash: string; archive_size: number; peak_buffered_bytes: number };

/**
 * The bundle stage: ZIP archives are inspected in the Piscina `bundle` pool, one archive
 * per task (an archive is a large unit of work, unlike a claim). The archive travels in a
 * buffer of its own, transferred; the members come back in one moved buffer and are
 * handed out as views of it.
 */
export class BundleStage {
  private readonly pool: BoundedPool;

  constructor(
    readonly limits: ArchiveLimits,
    options: BoundedPoolOptions,
  ) {
    this.pool = new BoundedPool(new URL('../workers/bundle/pool-entry.js', import.meta.url), options);
  }

  async inspect(archive: Uint8Array, skill: boolean): Promise<ArchiveInspection> {
    const buffer = ownBuffer(archive);
    const task: BundleTask = { archive: buffer, limits: this.limits, skill };
    const packed = await this.pool.run<PackedInspection>(task, [buffer]);
    if (!packed.valid) return packed;
    const { data, members, ...rest } = packed;
    return {
      ...rest,
      members: members.map(({ offset, ...m }) => ({
        ...m,
        classification: m.classification as Classification | null,
        bytes: new Uint8Array(data, offset, m.size_bytes),
      })),
    };
  }

  /** gv.queues: archives waiting for the pool and in it. */
  reading(): QueueReading {
    return this.pool.reading();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
