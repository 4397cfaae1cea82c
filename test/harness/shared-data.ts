import { existsSync } from 'node:fs';
import { relative } from 'node:path';
// The bench's own rule for where the public data sets live: ../shared/data beside the
// checkout, or beside the main checkout of a git worktree.
import { REPO_ROOT, sharedDataDir } from '../../bench/lib.js';

/**
 * The folder of the public data sets (training/scanner-sources.js reads from it), or an error
 * saying where to put them: `npm run test:data` needs them, `npm test` never does.
 */
export function sharedData(): string {
  const dir: string = sharedDataDir();
  if (!existsSync(dir)) {
    throw new Error(
      `The public data sets are not at ${relative(REPO_ROOT, dir)} (from the checkout). npm run test:data reads them from ../shared/data beside the checkout: put the shared data folder there (each set with its README), then run it again.`,
    );
  }
  return dir;
}
