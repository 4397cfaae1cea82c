import { describe, expect, it } from 'vitest';
import { ORG_VERBS } from '../../src/org/org-registry.js';
import { ORG_VERB_WRITES } from '@gate/client';

describe("the organization client's verb table is the org registry's", () => {
  it('names only verbs the organization serves', () => {
    for (const name of Object.keys(ORG_VERB_WRITES)) expect(ORG_VERBS.has(name), name).toBe(true);
  });
});
