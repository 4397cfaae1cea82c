#!/usr/bin/env node
// Prints the verb-by-part table, the parts of the house each verb's `uses` declares, into
// docs/architecture.md between the verb-parts markers ("What each verb uses"). The table is
// made by src/verbs/verb-parts-table.ts from the registry (src/verbs/registry.ts).
//
//   npm run docs:verbs              writes the table (after npm run build: it reads dist/)
//   npm run docs:verbs -- --check   exits 1 when the document holds another table
//
// test/docs/verb-parts.test.ts makes the same comparison from the sources, so a verb added or
// a `uses` changed without the document fails the tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ARCHITECTURE_DOC = join(ROOT, 'docs', 'architecture.md');
const OPEN = '<!-- verb-parts: printed by npm run docs:verbs from the registry; do not edit -->';
const CLOSE = '<!-- /verb-parts -->';

/** The document with `table` between its verb-parts markers; throws when it has no such markers. */
export function withVerbParts(doc, table) {
  const start = doc.indexOf(OPEN);
  const end = doc.indexOf(CLOSE);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no table between ${OPEN} and ${CLOSE}`);
  return `${doc.slice(0, start + OPEN.length)}\n${table}\n${doc.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { VERBS } = await import(join(ROOT, 'dist', 'src', 'verbs', 'registry.js'));
  const { verbPartsTable } = await import(join(ROOT, 'dist', 'src', 'verbs', 'verb-parts-table.js'));
  const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
  const next = withVerbParts(doc, verbPartsTable(VERBS));
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      console.error('docs/architecture.md: the verb-by-part table is not what the registry declares; run npm run build && npm run docs:verbs');
      process.exit(1);
    }
  } else if (next !== doc) {
    writeFileSync(ARCHITECTURE_DOC, next);
    console.log('docs/architecture.md: the verb-by-part table printed');
  }
}
