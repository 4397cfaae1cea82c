import { attachmentBudget, invalidParams, uploadQuota } from '../gate-error.js';
import type { Store } from '../store/store.js';
import type { GateConfig } from '../config/keys.js';
import type { Clock } from '../clock.js';

/**
 * The two bounds an upload must fit when it starts (-32015, docs/protocol.md#error-codes). The writer's quota
 * counts the bytes of the uploads it started in the rolling window, so it frees as the
 * window moves and the refusal says when; the budget counts what the whole store holds
 * and what unfinished uploads may still add, and frees only when an operator acts.
 */
export function checkUploadBounds(house: { readonly store: Store; readonly config: GateConfig; readonly clock: Clock }, writer: string, size: number): void {
  const { writer_quota_bytes: quota, writer_quota_window_ms: window, budget_bytes: budget, upload_ttl_ms: ttl } =
    house.config.attachments;
  if (size > quota) throw invalidParams(`an upload of ${size} bytes is larger than the per-writer quota of ${quota} bytes`, { field: 'size_bytes' });
  const now = house.clock.now();
  const counted = house.store.attachments.writerWindow(writer, now - window);
  let used = counted.reduce((n, u) => n + u.size_bytes, 0);
  if (used + size > quota) {
    // The soonest moment enough of the oldest uploads have left the window.
    let freesAt = now + window;
    for (const u of counted) {
      used -= u.size_bytes;
      if (used + size <= quota) {
        freesAt = u.started_ts + window;
        break;
      }
    }
    throw uploadQuota(Math.max(1, freesAt - now));
  }
  if (house.store.attachments.storedBytes(now - ttl) + size > budget) throw attachmentBudget();
}
