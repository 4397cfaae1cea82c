/**
 * @secretlint/core marks ~56 performance entries per lintSource call on a process-wide
 * profiler singleton, and that profiler's PerformanceObserver keeps every entry in an array
 * it searches linearly for a start mark whose name never matches. In a long-lived worker
 * whose event loop turns between scans, that made each scan slower than the last: measured
 * 6 ms per 1 KB scan after 2,000 scans and 20 ms after 4,000, with memory growing without
 * bound. Nothing in the scanner reads the profile, so its mark() becomes a no-op.
 *
 * The import names a dependency of @secretlint/core rather than one of ours; it resolves to
 * the same module instance core uses as long as npm hoists it (one copy in the tree), and
 * test/scanner/secretlint-profiler.test.ts fails if a scan ever leaves a mark behind again.
 */
import { secretLintProfiler } from '@secretlint/profiler';

let quieted = false;

export function quietSecretlintProfiler(): void {
  if (quieted) return;
  secretLintProfiler.mark = () => {};
  quieted = true;
}
