import { describe, expect, it } from 'vitest';
import { VERBS } from '../../src/verbs/registry.js';
import { TOOLS, toolsOf } from '../../src/tools/tool-catalog.js';
import { CLIENT_TOOLS, TOOL_WRITES, VERB_ROLES } from '../../src/client/verb-table.js';

describe("the client's tables are the registry's", () => {
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
