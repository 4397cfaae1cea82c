import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Caller } from '../../src/access/caller.js';
import { call } from '../../src/verbs/dispatch.js';
import { verbContext } from '../../src/verbs/define-verb.js';
import { HOUSE_PARTS, type House } from '../../src/verbs/house.js';
import { VERBS } from '../../src/verbs/registry.js';

/**
 * A handler is handed the caller and the parts its verb's `uses` lists, nothing else
 * (docs/architecture.md, "What each verb uses"): here through the dispatcher itself, in
 * process, over a house whose parts are markers, with no gate booted.
 */

/** A house of markers: each part an object naming itself; the store also waits for nothing to be durable. */
const house = Object.fromEntries(
  HOUSE_PARTS.map((part) => [part, part === 'store' ? { part, writer: { durable: async () => {} } } : { part }]),
) as unknown as House;

const callerFor = (role: Caller['role'], surface: Caller['surface']): Caller => ({
  identity: 'test|verb-context',
  role,
  kind: 'local',
  scope: null,
  demo: false,
  surface,
});

/** What a handler in place of the verb's own records before it refuses, so that no answer is checked. */
class Handed extends Error {
  constructor(readonly context: Record<string, unknown>) {
    super('handed');
  }
}

describe("the context a verb's handler is handed", () => {
  it('holds the caller and exactly the parts each verb of the registry declares, through the dispatcher', async () => {
    expect(VERBS.length).toBeGreaterThan(100);
    for (const verb of VERBS) {
      const own = { handler: verb.handler, params: verb.params, door: verb.door };
      // Only the handing is under test: the verb's params and write door stand aside for it.
      verb.params = z.strictObject({});
      verb.door = undefined;
      verb.handler = (ctx) => {
        throw new Handed({ ...ctx });
      };
      const caller = callerFor(verb.role === 'runner' ? 'runner' : 'admin', verb.surfaces?.[0] ?? 'socket');
      try {
        const handed = await call(house, caller, verb.name, {}).then(
          () => null,
          (error: unknown) => (error instanceof Handed ? error.context : error),
        );
        expect(handed, verb.name).toBeInstanceOf(Object);
        const context = handed as Record<string, unknown>;
        expect(Object.keys(context).sort(), verb.name).toEqual(['caller', ...verb.uses].sort());
        expect(context['caller']).toBe(caller);
        for (const part of verb.uses) expect(context[part], `${verb.name} ${part}`).toBe(house[part]);
      } finally {
        Object.assign(verb, own);
      }
    }
  });

  it('leaves a part not declared undefined, and hands a verb that declares none only its caller', () => {
    const caller = callerFor('reader', 'socket');
    const context = verbContext(house, caller, ['clock', 'log']);
    expect(Object.keys(context).sort()).toEqual(['caller', 'clock', 'log']);
    expect((context as unknown as Record<string, unknown>)['store']).toBeUndefined();
    expect(verbContext(house, caller, [])).toEqual({ caller });
  });
});
