import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { hashApiKey, keyIdOf } from '../credentials/api-keys.js';
import { writeFileAtomic } from '../config/atomic-write.js';

export const BUDGET_STATE_FORMAT = 'gate-runner-budget/1';

/** What a runner spent of its day's budget: milliseconds of command time on one UTC day. */
export interface SpentOnDay {
  day: string;
  spentMs: number;
}

const stateFile = z.strictObject({
  format: z.literal(BUDGET_STATE_FORMAT),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day YYYY-MM-DD'),
  spent_ms: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** A state file the runner cannot trust: it refuses to start rather than forget what was spent. */
export class RunnerStateError extends Error {}

/** The state directory: --state-dir, else $GATE_RUNNER_STATE_DIR, else ~/.local/state/gate-runner (never under workdir_root, which may not be in the home). */
export const defaultStateDir = () => process.env['GATE_RUNNER_STATE_DIR'] || join(homedir(), '.local', 'state', 'gate-runner');

/**
 * The day's spending of one runner key on disk (`budget-<key id>.json`, 0600), so a
 * restarted runner keeps counting where it stopped. Written whole to a temporary file that
 * is then renamed over it: a crash leaves the old file or the new one, never half of one.
 */
export class BudgetStateFile {
  constructor(readonly path: string) {}

  /** The file of the runner key `key` in `dir`: named by the key id gv.runners shows, never by the key. */
  static forKey(dir: string, key: string): BudgetStateFile {
    return new BudgetStateFile(join(dir, `budget-${keyIdOf(hashApiKey(key))}.json`));
  }

  /** What the file says, or null when there is none yet; anything else unreadable is a RunnerStateError. */
  read(): SpentOnDay | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw this.refusal(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.refusal('is not JSON');
    }
    const checked = stateFile.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw this.refusal(`is not a ${BUDGET_STATE_FORMAT} file (${issue.path.join('.') || 'the whole file'}: ${issue.message})`);
    }
    return { day: checked.data.day, spentMs: checked.data.spent_ms };
  }

  write(spent: SpentOnDay): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.path, `${JSON.stringify({ format: BUDGET_STATE_FORMAT, day: spent.day, spent_ms: Math.round(spent.spentMs) })}\n`);
  }

  private refusal(what: string): RunnerStateError {
    return new RunnerStateError(
      `the runner state file ${this.path} ${what}. It holds what this runner key spent of its day's budget; ` +
        `fix it (${JSON.stringify({ format: BUDGET_STATE_FORMAT, day: 'YYYY-MM-DD', spent_ms: 0 })}, the day in UTC), ` +
        `or remove it to count today's spending from 0, or name another directory with --state-dir.`,
    );
  }
}
