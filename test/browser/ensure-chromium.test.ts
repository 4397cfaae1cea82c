import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../harness/gate-process.js';

// npm test runs this script before vitest: a browser test must find its browser, never skip.
const SCRIPT = join(ROOT, 'test', 'harness', 'ensure-chromium.mjs');
const run = (env: Record<string, string>, uid?: number) =>
  spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', ...(uid === undefined ? {} : { uid, gid: uid }) });

describe('ensure-chromium: the browser is there before the suite runs', () => {
  it('says nothing and succeeds when the browser is there', () => {
    const done = run({ GATE_TEST_CHROMIUM: process.execPath });
    expect(done.status).toBe(0);
    expect(done.stderr).toBe('');
  });

  it('an account that cannot install it is told in one sentence how, and the run stops', () => {
    const done = run({ GATE_TEST_CHROMIUM: '/nonexistent/chromium' }, 65534);
    expect(done.status).toBe(1);
    expect(done.stderr).toBe(
      'The browser tests need Chromium at /nonexistent/chromium: install Debian\'s with "sudo apt-get update && sudo apt-get install -y chromium" (or name another build in GATE_TEST_CHROMIUM) and run the tests again.\n',
    );
  });
});
