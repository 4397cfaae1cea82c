import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's layout: /usr/lib/postgresql/<major>/bin; GATE_ORG_PG_BIN names another build's bin directory. */
export const POSTGRES_MISSING =
  'The organization gate embeds the machine\'s PostgreSQL: install it with "sudo apt-get update && sudo apt-get install -y postgresql" (or set GATE_ORG_PG_BIN to a directory holding initdb and pg_ctl), or give it --database-url.';

export function postgresBinDir(): string {
  const named = process.env['GATE_ORG_PG_BIN'];
  if (named) return named;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error(POSTGRES_MISSING);
}
