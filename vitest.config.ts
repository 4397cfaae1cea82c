import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Every test file of npm test, relative to the checkout: the data tests are npm run test:data's (vitest.data.config.ts). */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') && !entry.name.endsWith('.data.test.ts') ? [path] : [];
  });
}

/**
 * The unit layer's files (test/README.md): those whose gates are unit gates
 * (`useGate({ kind: 'unit' })`, the real Gate in the test's process). They share their
 * worker processes (isolate: false), so node loads the compiled gate once per worker rather
 * than once per file; a unit gate leaves the process as it found it (its environment and
 * umask restored at its stop). Every other file gets a process of its own, as before.
 */
const UNIT = testFiles('test').filter((file) => readFileSync(file, 'utf8').includes("kind: 'unit'"));

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Integration tests start real servers; two cores do not gain from more files at once.
    maxWorkers: 2,
    reporters: ['default', './test/harness/plain-summary-reporter.ts'],
    // Every gate a test starts, in this process or as a child, holds each verb's answer to its
    // declared schema (src/verbs/answer-check.ts) and each event it appends to its declaration in
    // the catalogue (src/journal/catalogue/event-check.ts): a field not declared fails the test.
    env: { GATE_CHECK_ANSWERS: '1', GATE_CHECK_EVENTS: '1' },
    // The compiled gate (dist/, what the harness opens in process) is node's to load, as
    // `gate serve` loads it: through vitest's module runner each file paid its hundreds of
    // modules' transform and evaluation again (4.2 s before a unit gate's first call, 1.1 s natively).
    server: { deps: { external: [/\/dist\//] } },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, isolate: false } },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/**/*.test.ts'],
          // The tests that need ../shared/data are npm run test:data's (vitest.data.config.ts).
          exclude: ['test/**/*.data.test.ts', '**/node_modules/**', ...UNIT],
        },
      },
    ],
  },
});
