import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEVER_WRITTEN, SERVED_TYPES } from '../../src/events/served-event.js';
import { UNWRITTEN_EVENTS } from '../../src/journal/catalogue/unwritten.js';
import { ROOT } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

/**
 * Each event type gv.events serves is either journaled by some act of this build or refused
 * by name in a `types` filter (never an empty page that would say nothing happened).
 */
const { gate, keys: { reviewer } } = useGate({ kind: 'unit', keys: { reviewer: 'reviewer' } });

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('event types never written', () => {
  it('the list names exactly the served types no source file outside the catalogue writes', () => {
    const code = ['src', 'pipeline', 'workers']
      .flatMap((d) => sources(join(ROOT, d)))
      // The catalogue declares every type, written or not (src/journal/catalogue/unwritten.ts): the code is the rest.
      .filter((f) => !f.includes(join('journal', 'catalogue') + '/'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unwritten = SERVED_TYPES.filter((t) => !code.includes(`'${t}'`));
    expect(unwritten.sort()).toEqual([...NEVER_WRITTEN].sort());
  });

  it('a gv.events filter naming one is refused by name; a written type is served', async () => {
    for (const type of NEVER_WRITTEN) {
      const refused = await gate.rpc(reviewer.key, 'gv.events', { types: ['promote', type] });
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.data).toEqual({ field: 'types', reason: 'never_written', type });
      expect(refused.error?.message).toContain(`never writes ${type} events`);
      expect(refused.error?.message).toContain(UNWRITTEN_EVENTS[type as keyof typeof UNWRITTEN_EVENTS].why);
    }
    // Recall shows steering; the reason is that a read journals nothing, not that no verb shows it.
    const steering = await gate.rpc(reviewer.key, 'gv.events', { types: ['steering-shown'] });
    expect(steering.error?.message).toMatch(/a read stays a read/);
    expect((await gate.rpc(reviewer.key, 'gv.events', { types: ['promote'] })).error).toBeUndefined();
  });
});
