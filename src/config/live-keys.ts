/**
 * Keys a running gate reads at each use, so gv.settings_save applies them at once. Every
 * other key was read into a pool, a listener, a schedule or a prepared table at start and
 * takes effect at the next start. A key joins this list only when every reader of it reads
 * `gate.config` at the moment of use (test/verbs/settings.test.ts proves it for the quarantine bound).
 */
export const LIVE_KEYS: ReadonlySet<string> = new Set([
  // The quarantine bound and its retry hint: read by every ingest (quarantine-depth.ts).
  'quarantine.max_depth',
  'quarantine.retry_after_ms',
  // Upload bounds: read as each upload starts (upload.ts, upload-bounds.ts, upload-completion.ts).
  'attachments.max_bytes',
  'attachments.writer_quota_bytes',
  'attachments.writer_quota_window_ms',
  'attachments.budget_bytes',
  'attachments.upload_ttl_ms',
  // The background rescan of promoted rows reads its rate at each page (scanning/promoted-rescan.ts).
  'scan.promoted_rescan_per_minute',
  // Recall's ranking constants: read at each search (gate.ts hands RankedSearch and
  // NeighbourContext a reader of config.recall; recall-tuning.ts).
  'recall.fusion',
  'recall.lexical_weight',
  'recall.context_share',
  'recall.answer_share',
  'recall.context_reach',
  'recall.context_lenders',
  // Reported by gv.describe and read by the verbs a single developer may do in development.
  'deployment.mode',
  // The organization: read by each drain and pull (submission/org-door.ts), and the pull's
  // schedule reads the url and period at each tick (submission/outcome-polling.ts), so
  // gate org join connects a running gate. The wait named when an org door asked for a
  // retry without one (submit.ts).
  'org.url',
  'org.api_key_env',
  'org.api_key_file',
  'org.allow_plain_http_loopback',
  'org.timeout_ms',
  'org.poll_every_ms',
  'org.retry_after_ms',
]);
