import { defineConfig } from 'vitest/config';

// npm run test:data: the tests that read the public data sets in ../shared/data beside the
// checkout (training reproduction, quality on public sets). npm test never needs them.
export default defineConfig({
  test: {
    include: ['test/**/*.data.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/harness/plain-summary-reporter.ts'],
    // The compiled gate is node's to load, not vitest's module runner's (vitest.config.ts says why).
    server: { deps: { external: [/\/dist\//] } },
  },
});
