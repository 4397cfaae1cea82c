import { completeUpload, owedCompletion, underUploadLock } from './upload-completion.js';
import type { Store } from '../store/store.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';
import type { GateConfig } from '../config/keys.js';
import type { Clock } from '../clock.js';
import type { Log } from '../log.js';
import type { Recovery } from '../../pipeline/recovery.js';

/**
 * At start, every upload a crash (or a failed completion) left with all its bytes on disk
 * and no completion is completed, or discarded as its last chunk would have been, so an
 * ingest naming it works without its writer asking first. One at a time, each under its
 * upload's lock: a writer's status query or retried last chunk arriving meanwhile waits
 * and is answered from the journal. Run again, it finds nothing owed and writes nothing.
 */
export async function recoverUploads(house: { readonly store: Store; readonly pipeline: PipelinePart; readonly config: GateConfig; readonly clock: Clock; readonly log: Log }): Promise<Recovery> {
  const recovery: Recovery = { completed: 0, discarded: 0, deferred: 0 };
  const since = house.clock.now() - house.config.attachments.upload_ttl_ms;
  for (const { writer, sha256 } of house.store.attachments.liveUploads(since)) {
    try {
      await underUploadLock(house, writer, sha256, async () => {
        const owed = await owedCompletion(house, writer, sha256);
        if (owed === null) return;
        const done = await completeUpload(house, owed);
        if ('completed' in done) recovery.completed++;
        else recovery.discarded++;
      });
    } catch (error) {
      recovery.deferred++;
      house.log.error(`upload ${sha256.slice(0, 23)} has all its bytes but could not be completed at start; its next status query tries again`, error);
    }
  }
  if (recovery.completed + recovery.discarded + recovery.deferred > 0) {
    house.log.info(
      `uploads a crash left unfinished with all their bytes: ${recovery.completed} completed, ${recovery.discarded} discarded, ${recovery.deferred} deferred`,
    );
  }
  return recovery;
}
