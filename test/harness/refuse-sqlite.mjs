// Preloaded with --import: any module asking for better-sqlite3 fails to load, naming it.
// The org server's test runs `gate org serve` under it (the org server must never load the SQLite gate).
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'better-sqlite3' || specifier.startsWith('better-sqlite3/')) throw new Error('better-sqlite3 was loaded by ' + context.parentURL);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
