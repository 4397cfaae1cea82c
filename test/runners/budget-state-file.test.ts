import { describe, expect, it } from 'vitest';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { BudgetStateFile, RunnerStateError } from '../../dist/src/runner/budget-state-file.js';
import { DayBudget } from '../../dist/src/runner/day-budget.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'gate-runner-state-'));
const NOON = Date.UTC(2026, 10, 24, 12);

describe("the runner's state file", () => {
  it('is named by the key id, never by the key, and is absent until the first write', () => {
    const dir = freshDir();
    const key = `gk_${'a'.repeat(43)}`;
    const file = BudgetStateFile.forKey(dir, key);
    const keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
    expect(file.path).toBe(join(dir, `budget-${keyId}.json`));
    expect(file.path).not.toContain(key);
    expect(file.read()).toBeNull();
  });

  it('is written whole to a new file renamed over the old (0600, no temporary left), in a directory it makes 0700', () => {
    const dir = join(freshDir(), 'state');
    const file = new BudgetStateFile(join(dir, 'budget-x.json'));
    file.write({ day: '2026-11-24', spentMs: 1500 });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    // A second name for the first file: a write in place would change it too; a rename leaves it whole.
    const before = join(dir, 'before.json');
    linkSync(file.path, before);
    file.write({ day: '2026-11-24', spentMs: 4200.4 });
    expect(JSON.parse(readFileSync(before, 'utf8'))).toEqual({ format: 'gate-runner-budget/1', day: '2026-11-24', spent_ms: 1500 });
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toEqual({ format: 'gate-runner-budget/1', day: '2026-11-24', spent_ms: 4200 });
    expect(statSync(file.path).ino).not.toBe(statSync(before).ino);
    expect(readdirSync(dir).sort()).toEqual(['before.json', 'budget-x.json']);
    expect(file.read()).toEqual({ day: '2026-11-24', spentMs: 4200 });
  });

  it('refuses a corrupt or unreadable file, naming it and how to fix it, rather than starting again from 0', () => {
    const dir = freshDir();
    const cases: Array<[string, string | null, RegExp]> = [
      ['garbage.json', '{"format":"gate-runner-bud', /is not JSON/],
      ['negative.json', '{"format":"gate-runner-budget/1","day":"2026-11-24","spent_ms":-5}', /spent_ms/],
      ['no-day.json', '{"format":"gate-runner-budget/1","spent_ms":5}', /day/],
      ['other-format.json', '{"format":"something/2","day":"2026-11-24","spent_ms":5}', /format/],
      ['a-directory.json', null, /cannot be read \(EISDIR\)/],
    ];
    for (const [name, text, why] of cases) {
      const path = join(dir, name);
      if (text === null) mkdirSync(path);
      else writeFileSync(path, text);
      const file = new BudgetStateFile(path);
      let refusal: unknown;
      try {
        file.read();
      } catch (error) {
        refusal = error;
      }
      expect(refusal, name).toBeInstanceOf(RunnerStateError);
      const message = (refusal as Error).message;
      expect(message).toContain(path);
      expect(message).toMatch(why);
      expect(message).toContain('remove it');
      expect(message).toContain('--state-dir');
    }
  });

  it("keeps a day budget's spending across a restart on the same day, and not on the next", () => {
    const file = new BudgetStateFile(join(freshDir(), 'budget-y.json'));
    const store = { load: () => file.read(), save: (s: { day: string; spentMs: number }) => file.write(s) };
    const first = new DayBudget(store, NOON);
    first.spend(2500, NOON + 10);
    first.checkpoint(1700, NOON + 20);
    // Killed with a command running: the next start counts what ended and what had run.
    expect(new DayBudget(store, NOON + 30).report(2880, 0, NOON + 30)).toEqual({ day: '2026-11-24', spent: 4, of: 2880 });
    // The command's end counts its whole time once, not on top of the checkpoint.
    first.spend(1900, NOON + 40);
    expect(new DayBudget(store, NOON + 50).spent(0, NOON + 50)).toBe(4);
    const tomorrow = Date.UTC(2026, 10, 25, 0, 0, 1);
    expect(new DayBudget(store, tomorrow).report(2880, 0, tomorrow)).toEqual({ day: '2026-11-25', spent: 0, of: 2880 });
  });
});
