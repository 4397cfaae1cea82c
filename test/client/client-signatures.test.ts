import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TOOLS, TOOL_WRITES, VERB_ROLES } from '@gate/client';
import { VERBS } from '../../src/verbs/registry.js';
import { TOOLS, toolsOf } from '../../src/tools/tool-catalog.js';
import { SIGNATURES_FILE, signaturesText } from '../../scripts/client-signatures.mjs';

/**
 * The client package's types are printed from the gate's declarations (scripts/client-signatures.mjs):
 * the committed file must be exactly what the built registry prints, so a verb's params or answer
 * changed without `npm run client:signatures` fails here, not in a project that installed the client.
 */
describe("the client package's signatures are the gate's", () => {
  it('packages/client/src/verb-signatures.ts is what the registry and tool table print', async () => {
    const current = readFileSync(SIGNATURES_FILE, 'utf8');
    expect(current === (await signaturesText()), 'run npm run build && npm run client:signatures, and commit the file').toBe(true);
  });

  it('every verb with its role, and nothing else', () => {
    expect(VERB_ROLES).toEqual(Object.fromEntries(VERBS.map((v) => [v.name, v.role])));
  });

  it('the client-tier tools, and which of them write', () => {
    expect([...CLIENT_TOOLS]).toEqual(toolsOf('client').map((t) => t.name));
    expect([...TOOL_WRITES]).toEqual(TOOLS.filter((t) => !t.annotations.readOnlyHint).map((t) => t.name));
  });

  it('every tool maps onto a verb of the registry', () => {
    const names = new Set(VERBS.map((v) => v.name));
    for (const t of TOOLS) expect(names.has(t.verb), t.name).toBe(true);
  });
});
