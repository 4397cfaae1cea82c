import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** The test files, relative to the checkout (the data tests are npm run test:data's). */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') && !entry.name.endsWith('.data.test.ts') ? [path] : [];
  });
}

/**
 * Files that replace a module with vi.mock need a module graph of their own: in a shared
 * process the module may already be loaded for an earlier file (the mock would not take) or
 * stay mocked for a later one.
 */
const MOCKING = testFiles('test').filter((file) => readFileSync(file, 'utf8').includes('vi.mock('));

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Integration tests start real servers; two cores do not gain from more files at once.
    maxWorkers: 2,
    /**
     * Files share their worker processes (test/README.md): node starts a worker and loads the
     * harness, vitest's runner and, for the unit layer, the compiled gate once per worker
     * rather than once per file (60 files of the process level took 165 s of CPU in a process
     * each and 138 s in shared ones). A file leaves its process as it found it: a gate opened
     * in the process lifts the environment and umask it set at its stop
     * (test/harness/process-overlay.ts), and a file's servers, gates and browsers are stopped
     * by its own afterAll.
     */
    isolate: false,
    // The file that leaves its environment or umask changed fails (test/harness/left-as-found.ts).
    setupFiles: ['./test/harness/left-as-found.ts'],
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
      // Every test file of npm test; the data tests are npm run test:data's (vitest.data.config.ts).
      // Each project names its own files: a project that extends the root adds its include to the root's.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ['test/**/*.data.test.ts', '**/node_modules/**', ...MOCKING] } },
      { extends: true, test: { name: 'isolated', include: MOCKING, isolate: true } },
    ],
  },
});
