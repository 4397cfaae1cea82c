#!/usr/bin/env node
// The reverse-proxy test (test/operations/behind-proxy.test.ts) runs the nginx configuration
// docs/operations.md gives operators, in a real nginx on loopback, and never skips. So before
// the suite runs, nginx must be there: as root this installs Debian's; any other account is told how.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const NGINX_MISSING =
  'The reverse-proxy test needs nginx (with its SSL module): install Debian\'s with "sudo apt-get update && sudo apt-get install -y nginx" (or name another build in GATE_TEST_NGINX) and run the tests again.';

/** Where nginx is: GATE_TEST_NGINX, else Debian's. */
export function nginxPath() {
  return process.env.GATE_TEST_NGINX ?? '/usr/sbin/nginx';
}

function run(command, args) {
  const done = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${done.status ?? done.signal})`);
}

export function ensureNginx() {
  if (existsSync(nginxPath())) return;
  if (process.getuid?.() !== 0) {
    console.error(NGINX_MISSING);
    process.exit(1);
  }
  console.error("nginx is missing: installing Debian's nginx with apt-get.");
  run('apt-get', ['update']);
  // The package's own service is not used: the test starts nginx with a configuration of its own.
  run('apt-get', ['install', '-y', 'nginx']);
  if (!existsSync(nginxPath())) {
    console.error(`apt-get installed nginx but ${nginxPath()} is still missing. ${NGINX_MISSING}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) ensureNginx();
