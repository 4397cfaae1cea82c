import type { ValueSource } from './load-config.js';

/** What a running gate knows of its configuration beyond the values: where each came from. */
export interface ConfigOrigin {
  /** By `section.key`: default, file, `env GATE_…` or `flag section.key`, as `gate config` prints it. */
  sources: Record<string, ValueSource>;
  /** Values that won over file and environment at start (`--port`, `--log-level`, a test's settings). */
  flags: Record<string, unknown>;
  /** Values gv.settings_save wrote to gate.toml that take effect only at the next start, by key. */
  savedForRestart: Map<string, unknown>;
}
