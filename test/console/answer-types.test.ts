import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';

/**
 * The console types every call from the verb's own declaration (app/src/rpc.ts, over
 * src/verbs/verb-types.ts): a verb's params and answer and what the page reads are one
 * declaration, so a field the page reads that the verb does not answer fails the build.
 * The probe holds reads that must not compile; were the typing lost (an `any` on the way),
 * they would, and their `@ts-expect-error` directives would fail the check instead.
 */
describe("the console's calls, typed from the verbs' declarations", () => {
  it('a wrong field, a wrong param and an unknown verb are type errors in the console', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'test', 'console', 'answer-types', 'tsconfig.json')], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
    // A whole tsc run: tens of seconds on a loaded machine, so bounded for a hang, not for speed.
  }, 300_000);
});
