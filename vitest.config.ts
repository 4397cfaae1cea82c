import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tests that need ../shared/data are npm run test:data's (vitest.data.config.ts).
    exclude: ['test/**/*.data.test.ts', '**/node_modules/**'],
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
  },
});
