import { availableParallelism } from 'node:os';
import type { GateConfig } from '../config/keys.js';
import type { Part, PartMaker } from '../part.js';
import { BundleStage } from '../../pipeline/bundle-stage.js';
import { ImageStage } from '../../pipeline/image-stage.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';
import { ScanStage } from '../../pipeline/scan-stage.js';

/**
 * The pools untrusted bytes go through, in the order the root builds them
 * (docs/architecture.md#parts-with-a-life): the bundle and image pools, the scan pool,
 * and the upload recovery that uses them, which closes first.
 */

/** Most tasks waiting for or in the bundle and image pools, as the scan queue's bound. */
const poolBound = (config: GateConfig) => ({ queueMax: config.quarantine.scan_queue, retryAfterMs: 1000 });

/** ZIP inspection for gv.ingest_bundle and gv.ingest_map. */
export const bundlePoolPart: PartMaker<GateConfig, object, BundleStage> = {
  name: 'the bundle pool',
  create: (config) =>
    new BundleStage(
      {
        archiveMaxBytes: config.bundle.archive_max_bytes,
        entriesMax: config.bundle.entries_max,
        memberMaxBytes: config.bundle.member_max_bytes,
        expandedMaxBytes: config.bundle.expanded_max_bytes,
        ratioMax: config.bundle.ratio_max,
        pathMaxBytes: config.bundle.path_max_bytes,
        pathMaxSegments: config.bundle.path_max_segments,
      },
      { threads: config.bundle.threads, ...poolBound(config) },
    ),
};

/** Media types and served copies of uploads. */
export const imagePoolPart: PartMaker<GateConfig, object, ImageStage> = {
  name: 'the image pool',
  create: (config) =>
    new ImageStage({
      maxPixels: config.image.max_pixels,
      threads: config.image.threads,
      deadlineMs: config.image.deadline_ms,
      heapMb: config.image.heap_mb,
      ...poolBound(config),
    }),
};

export const scanPoolPart: PartMaker<GateConfig, object, ScanStage> = {
  name: 'the scan pool',
  create: (config) =>
    new ScanStage({
      threads: config.scan.threads === 0 ? availableParallelism() : config.scan.threads,
      batchMax: config.scan.batch_max,
      queueMax: config.quarantine.scan_queue,
      deadlineMs: config.scan.deadline_ms,
      personalDataSeverity: config.scan.personal_data_severity,
    }),
};

/**
 * The upload completions a crash left owed, made once the gate is open (src/gate.ts, open:
 * recoverUploads). They use the scan and image pools and the writer, so a close waits for them first.
 */
export const uploadRecoveryPart: PartMaker<GateConfig, { pipeline: Pick<PipelinePart, 'uploadRecovery'> }, Part> = {
  name: 'the upload recovery',
  create: (_config, { pipeline }) => ({
    close: async () => {
      await pipeline.uploadRecovery;
    },
  }),
};
