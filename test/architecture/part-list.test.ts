import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PartList } from '../../src/part-list.js';
import type { Part, PartMaker } from '../../src/part.js';
import { InProcessGate } from '../harness/in-process-gate.js';

/**
 * The root's parts close in the reverse of the order they were built, and a build that fails
 * closes what it had built (docs/architecture.md#parts-with-a-life). Stub parts record their
 * closes; the real gate is held to the order the document lists.
 */

/** A maker of a part that records, in `log`, when it closes; `fails` makes its create throw. */
function recorded(name: string, log: string[], options: { fails?: boolean; closeFails?: boolean; slow?: boolean } = {}): PartMaker<{ tag: string }, { after: string[] }, Part & { name: string }> {
  return {
    name,
    create(config, deps) {
      if (options.fails === true) throw new Error(`${name} could not be built`);
      log.push(`built ${name} (${config.tag}, after ${deps.after.join('+') || 'nothing'})`);
      return {
        name,
        close: async () => {
          // A close that takes a turn of the event loop: the next close waits for it.
          if (options.slow === true) await new Promise((r) => setTimeout(r, 5));
          log.push(`closed ${name}`);
          if (options.closeFails === true) throw new Error(`${name} failed to close`);
        },
      };
    },
  };
}

describe('the root\'s part list', () => {
  it('closes the parts in the reverse of the order they were built, each close awaited before the next', async () => {
    const log: string[] = [];
    const failures: string[] = [];
    const parts = new PartList((name) => failures.push(name));
    const a = parts.make(recorded('a', log), { tag: 'c' }, { after: [] });
    const b = parts.make(recorded('b', log, { slow: true }), { tag: 'c' }, { after: [a.name] });
    parts.make(recorded('c', log), { tag: 'c' }, { after: [a.name, b.name] });
    expect(parts.names).toEqual(['a', 'b', 'c']);
    expect(parts.step).toBeNull();
    const closing = parts.close();
    // The same close, however often it is asked for.
    expect(parts.close()).toBe(closing);
    await closing;
    expect(log).toEqual(['built a (c, after nothing)', 'built b (c, after a)', 'built c (c, after a+b)', 'closed c', 'closed b', 'closed a']);
    expect(parts.step).toBe('closed');
    expect(failures).toEqual([]);
    expect(() => parts.make(recorded('d', log), { tag: 'c' }, { after: [] })).toThrow(/the parts are closing/);
  });

  it('names the part closing while it closes', async () => {
    let release: () => void = () => undefined;
    const parts = new PartList(() => undefined);
    parts.make({ name: 'first', create: () => ({ close: async () => undefined }) }, null, null);
    parts.make({ name: 'held', create: () => ({ close: () => new Promise<void>((r) => (release = r)) }) }, null, null);
    const closing = parts.close();
    await vi.waitFor(() => expect(parts.step).toBe('held'));
    release();
    await closing;
    expect(parts.step).toBe('closed');
  });

  it('closes the parts already built, in reverse, when a later one fails to build, and the error goes on', async () => {
    const log: string[] = [];
    const parts = new PartList(() => undefined);
    parts.make(recorded('a', log), { tag: 'x' }, { after: [] });
    parts.make(recorded('b', log), { tag: 'x' }, { after: ['a'] });
    expect(() => parts.make(recorded('c', log, { fails: true }), { tag: 'x' }, { after: ['a', 'b'] })).toThrow('c could not be built');
    expect(parts.abandoned).not.toBeNull();
    await parts.abandoned;
    expect(log).toEqual(['built a (x, after nothing)', 'built b (x, after a)', 'closed b', 'closed a']);
    expect(parts.names).toEqual(['a', 'b']);
  });

  it('closes the rest when one part fails to close, and reports that one', async () => {
    const log: string[] = [];
    const failures: Array<[string, string]> = [];
    const parts = new PartList((name, error) => failures.push([name, (error as Error).message]));
    parts.make(recorded('a', log), { tag: 'y' }, { after: [] });
    parts.make(recorded('b', log, { closeFails: true }), { tag: 'y' }, { after: [] });
    parts.make(recorded('c', log), { tag: 'y' }, { after: [] });
    await parts.close();
    expect(log.filter((l) => l.startsWith('closed'))).toEqual(['closed c', 'closed b', 'closed a']);
    expect(failures).toEqual([['b', 'b failed to close']]);
  });
});

describe('the gate\'s parts', () => {
  it('are built in the order docs/architecture.md lists, and closed in reverse', async () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Parts with a life'), doc.indexOf('## A write\'s path'));
    const listed = [...section.matchAll(/^\| ([^|]+?) \| `src\/parts\//gm)].map((m) => m[1]!.trim());
    expect(listed.length).toBeGreaterThan(10);
    // An in-process gate does not serve, so it builds every part but the review schedule.
    const gate = InProcessGate.open();
    const built = gate.gate.partNames;
    const closing: string[] = [];
    const watch = setInterval(() => {
      const step = gate.gate.deployment.closing;
      if (step !== null && closing.at(-1) !== step) closing.push(step);
    }, 0);
    try {
      expect(built).toEqual(listed.filter((name) => name !== 'the review schedule'));
    } finally {
      await gate.close();
      clearInterval(watch);
    }
    expect(gate.gate.deployment.closing).toBe('closed');
    // What the close was seen at, in order: every one a part, later ones built earlier.
    const seen = closing.filter((s) => s !== 'closed').map((s) => built.indexOf(s));
    expect(seen.every((i) => i >= 0)).toBe(true);
    expect(seen).toEqual([...seen].sort((x, y) => y - x));
  });
});
