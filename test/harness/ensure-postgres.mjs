#!/usr/bin/env node
// The organization gate's tests run a real PostgreSQL (docs/architecture.md#rules-of-the-house,
// rule 10: tests go through real surfaces), embedded from the machine's own binaries, and never skip. So before the suite
// runs, PostgreSQL must be there: as root this installs Debian's; any other account is told how.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const POSTGRES_MISSING =
  'The organization gate tests need PostgreSQL\'s initdb and pg_ctl: install Debian\'s with "sudo apt-get update && sudo apt-get install -y postgresql" (or name another build\'s bin directory in GATE_ORG_PG_BIN) and run the tests again.';

function found() {
  if (process.env.GATE_ORG_PG_BIN) return existsSync(join(process.env.GATE_ORG_PG_BIN, 'initdb'));
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((major) => existsSync(join(root, major, 'bin', 'initdb')) && existsSync(join(root, major, 'bin', 'pg_ctl')));
}

function run(command, args) {
  const done = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${done.status ?? done.signal})`);
}

export function ensurePostgres() {
  if (found()) return;
  if (process.getuid?.() !== 0) {
    console.error(POSTGRES_MISSING);
    process.exit(1);
  }
  console.error('PostgreSQL is missing: installing Debian\'s postgresql with apt-get.');
  run('apt-get', ['update']);
  // The package's own cluster is not used: the org gate makes its own in its home.
  run('apt-get', ['install', '-y', 'postgresql']);
  if (!found()) {
    console.error(`apt-get installed postgresql but initdb is still missing. ${POSTGRES_MISSING}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) ensurePostgres();
