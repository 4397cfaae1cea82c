#!/usr/bin/env node
// Browser tests drive Debian's Chromium (docs/architecture.md#rules-of-the-house, rule 10: a browser test drives real Chromium), and a
// browser test never skips. So before the suite runs, the browser must be there: as root
// this installs it; any other account is told, in one sentence, how to.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Debian's chromium; GATE_TEST_CHROMIUM names another build of it. */
export const CHROMIUM = process.env.GATE_TEST_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_MISSING = `The browser tests need Chromium at ${CHROMIUM}: install Debian's with "sudo apt-get update && sudo apt-get install -y chromium" (or name another build in GATE_TEST_CHROMIUM) and run the tests again.`;

function run(command, args) {
  const done = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${done.status ?? done.signal})`);
}

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    console.error(CHROMIUM_MISSING);
    process.exit(1);
  }
  console.error(`${CHROMIUM} is missing: installing Debian's chromium with apt-get.`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', 'chromium']);
  if (!existsSync(CHROMIUM)) {
    console.error(`apt-get installed chromium but ${CHROMIUM} is still missing. ${CHROMIUM_MISSING}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) ensureChromium();
