import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, EVENT_TYPES } from '../../src/journal/catalogue/catalogue.js';
import { UNWRITTEN_EVENTS } from '../../src/journal/catalogue/unwritten.js';
import { checkEvent, EVENTS_CHECKED } from '../../src/journal/catalogue/event-check.js';
import { NEVER_WRITTEN, SERVED_TYPES, servedAs } from '../../src/journal/catalogue/served-types.js';
import { SERVED_FIELD_TYPES } from '../../src/events/served-event-fields.js';
import { ROOT } from '../harness/gate-process.js';
import { InProcessGate } from '../harness/in-process-gate.js';

/**
 * The catalogue (src/journal/catalogue/) against the code: every type it declares is written
 * by the folders it names as owners, every type the code appends is declared, every type it
 * serves but no act writes is refused by name, and the tests hold each appended event to its
 * declaration (GATE_CHECK_EVENTS, set in vitest.config.ts for this process and every gate).
 */
const CATALOGUE_DIR = 'src/journal/catalogue/';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Each source file of src/, pipeline/ and workers/ outside the catalogue, by its path from the root, with its text. */
const code = ['src', 'pipeline', 'workers']
  .flatMap((d) => sources(join(ROOT, d)))
  .map((f) => ({ path: relative(ROOT, f).split('\\').join('/'), text: readFileSync(f, 'utf8') }))
  .filter((f) => !f.path.startsWith(CATALOGUE_DIR));

const named = (type: string) => new RegExp(`['"]${type.replace(/[-]/g, '\\-')}['"]`);

describe('the event catalogue', () => {
  it('is held to every appended event in the tests', () => {
    expect(process.env['GATE_CHECK_EVENTS']).toBe('1');
    expect(EVENTS_CHECKED).toBe(true);
  });

  it('declares each type once, and each is written by code in every folder it names as its owner', () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    const unwritten = EVENT_TYPES.flatMap((type) =>
      CATALOGUE[type].owner
        .filter((owner) => !code.some((f) => (owner.endsWith('/') ? f.path.startsWith(owner) : f.path === owner) && named(type).test(f.text)))
        .map((owner) => `${type} by ${owner}`),
    );
    expect(unwritten).toEqual([]);
  });

  it('declares every type the code appends by name', () => {
    const appended = new Set<string>();
    for (const { text } of code) {
      for (const m of text.matchAll(/journal\.append\(\s*'([^']+)'/g)) appended.add(m[1]!);
      for (const m of text.matchAll(/\.append\(\s*\w+ === '\w+' \? '([^']+)' : '([^']+)'/g)) appended.add(m[1]!).add(m[2]!);
    }
    // The compiler holds every append to the catalogue; this finds the names it read, so a regex that matched nothing fails here.
    expect(appended.size).toBeGreaterThan(60);
    expect([...appended].filter((t) => !(t in CATALOGUE))).toEqual([]);
  });

  it('holds ratify to the states it enters: L3_RATIFIED or NEEDS_EVIDENCE, never REJECTED (docs/spec-choices.md, gv.node refusal)', () => {
    const move = { artifact_id: 'sha256:' + '0'.repeat(64), space: 'main', leaves: 'L2_SCORED', trust_class: 'T-2', content_type: 'text/plain' };
    expect(CATALOGUE.ratify.data.safeParse({ ...move, enters: 'L3_RATIFIED' }).success).toBe(true);
    expect(CATALOGUE.ratify.data.safeParse({ ...move, enters: 'NEEDS_EVIDENCE', asks: 'a source' }).success).toBe(true);
    expect(CATALOGUE.ratify.data.safeParse({ ...move, enters: 'REJECTED' }).success).toBe(false);
  });

  it('leaves the unchecked append to tests: no source appends an event outside the catalogue', () => {
    expect(code.filter((f) => f.text.includes('appendForeign(') && !f.path.endsWith('journal/journal.ts')).map((f) => f.path)).toEqual([]);
  });

  it('names the served types no act writes, each with why, none declared as written and none named by any source', () => {
    expect([...NEVER_WRITTEN].sort()).toEqual(Object.keys(UNWRITTEN_EVENTS).sort());
    for (const [type, { why }] of Object.entries(UNWRITTEN_EVENTS)) {
      expect(type in CATALOGUE, type).toBe(false);
      expect(why.length, type).toBeGreaterThan(10);
      expect(SERVED_TYPES).toContain(type);
    }
    // gv.events reads the list from the catalogue; nothing else names these types, so nothing can write one.
    const namers = Object.keys(UNWRITTEN_EVENTS).flatMap((type) => code.filter((f) => named(type).test(f.text)).map((f) => `${type} in ${f.path}`));
    expect(namers).toEqual([]);
  });

  it('serves only fields the served event schema types', () => {
    const untyped = EVENT_TYPES.flatMap((type) => {
      const served = servedAs(type);
      if (served === undefined) return [];
      const names = [...served.fields, ...Object.values(served.counted ?? {})];
      return names.filter((f) => !(f in SERVED_FIELD_TYPES)).map((f) => `${type}.${f}`);
    });
    expect(untyped).toEqual([]);
  });

  it('refuses an undeclared type, a missing field, a field of another type and one not declared; takes an event as declared', () => {
    const refusal = (type: string, data: unknown) => {
      try {
        checkEvent(type, data);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const rank = { artifact_id: 'sha256:a', space: 'main', audience: 'everyone', weight: 2 };
    expect(refusal('rank', rank)).toBeNull();
    expect(refusal('rank', { ...rank, workarea: 'w/a' })).toBeNull();
    expect(refusal('ranked', rank)).toContain('event type ranked is not declared');
    expect(refusal('rank', { ...rank, weight: undefined })).toContain('weight');
    expect(refusal('rank', { ...rank, weight: 'heavy' })).toContain('weight');
    expect(refusal('rank', { ...rank, note: 'more' })).toContain('note');
  });
});

describe('a gate under the check', () => {
  let g: InProcessGate;
  beforeAll(() => {
    g = InProcessGate.open();
  });
  afterAll(async () => {
    await g?.close();
  });

  it('fails a write whose event is outside its declaration, and appends nothing of it', async () => {
    const before = g.gate.store.journal.chainHead.seq;
    const journal = g.gate.store.journal as unknown as { append(type: string, by: string | null, data: Record<string, unknown>): unknown };
    await expect(g.gate.store.writer.write(() => journal.append('space-created', null, { space: 'second', owner: 'operator' }))).rejects.toThrow(
      "a space-created event's data is outside its declaration",
    );
    expect(g.gate.store.journal.chainHead.seq).toBe(before);
    expect(g.gate.store.spaceNames()).not.toContain('second');
    await g.gate.store.writer.write(() => journal.append('space-created', null, { space: 'second', owner: 'operator', policy: 'auto' }));
    expect(g.gate.store.spaceNames()).toContain('second');
  });
});
