import { afterAll, expect } from 'vitest';

/**
 * Files share their worker processes (vitest.config.ts, isolate: false), so a file must leave
 * the process as it found it: its environment and its umask. A gate opened in the test's
 * process lays its own over them while it runs (process-overlay.ts); one that stayed behind
 * made the next file's homes 0700, and PostgreSQL, run as its own account, could not enter
 * them. Run before every file (setupFiles): the file that changed either fails, naming what.
 */
const umaskNow = () => {
  const mask = process.umask(0o022);
  process.umask(mask);
  return mask;
};
/** vitest's own per-file variables are its to change, and sharp sets VIPSHOME as it loads (once a process). */
const environment = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'VIPSHOME'));

const umask = umaskNow();
const env = environment();

afterAll(() => {
  expect(umaskNow().toString(8), 'the umask this file left its worker process with').toBe(umask.toString(8));
  expect(environment(), 'the environment this file left its worker process with').toEqual(env);
});
