import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { Journal } from '../../src/journal/journal.js';
import { JournalWriter } from '../../src/journal/group-commit.js';
import { createJournalSchema } from '../../src/journal/schema.js';
import { Projections } from '../../src/projections/projections.js';
import { SPACE_EVENTS } from '../../src/projections/spaces.js';
import { ViewChanges } from '../../src/journal/view-changes.js';
import { systemClock } from '../../src/clock.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** The real journal, reducers and group commit on a fresh database, with the space list kept as the gate keeps it. */
function store() {
  const home = mkdtempSync(join(tmpdir(), 'view-changes-'));
  homes.push(home);
  const db = new Database(join(home, 'gate.db'));
  createJournalSchema(db);
  const projections = new Projections(db, 'main');
  const journal = new Journal(db, DeploymentKey.openOrCreate(join(home, 'deployment.key')), systemClock, projections);
  const writer = new JournalWriter(db, journal, { maxBatch: 64, windowMs: 0 });
  const read = db.prepare('SELECT name FROM spaces ORDER BY name').pluck();
  let reads = 0;
  const spaceNames = journal.viewChanges.memo(SPACE_EVENTS, () => {
    reads += 1;
    return read.all() as string[];
  });
  const createSpace = (space: string) => journal.append('space-created', null, { space, owner: 'operator', policy: 'auto' });
  return { journal, writer, spaceNames, createSpace, reads: () => reads };
}

describe('reads kept until the views change (ViewChanges)', () => {
  it('a kept read is asked again once an event of its types is applied, and only then', async () => {
    const s = store();
    await s.writer.write(() => s.createSpace('main'));
    expect(s.spaceNames()).toEqual(['main']);
    expect(s.spaceNames()).toEqual(['main']);
    expect(s.reads()).toBe(1);
    // An event no space read depends on leaves the kept list.
    await s.writer.write(() => s.journal.append('ban', 'uid:0', { kind: 'writer', subject: 'key:x' }));
    expect(s.spaceNames()).toEqual(['main']);
    expect(s.reads()).toBe(1);
    await s.writer.write(() => s.createSpace('other'));
    expect(s.spaceNames()).toEqual(['main', 'other']);
    expect(s.reads()).toBe(2);
  });

  it('what a refused write read while it stood is not kept after its rollback, alone or inside a batch', async () => {
    const s = store();
    await s.writer.write(() => s.createSpace('main'));
    const seen: string[][] = [];
    const refused = s.writer.write(() => {
      s.createSpace('gone');
      seen.push(s.spaceNames());
      throw new Error('refused after reading');
    });
    const beside = s.writer.write(() => s.createSpace('kept'));
    await expect(refused).rejects.toThrow('refused after reading');
    await beside;
    // The write read its own space while it stood (both in the fast batch and when replayed alone).
    expect(seen.every((names) => names.includes('gone'))).toBe(true);
    expect(s.spaceNames()).toEqual(['kept', 'main']);
  });

  it('a value kept per key is dropped for every key once the views change; the count of keys is bounded', () => {
    const changes = new ViewChanges();
    let asked = 0;
    const byKey = changes.memoByKey(['apikey-revoked'], (k: string) => `${k}:${++asked}`, 2);
    expect([byKey('a'), byKey('a'), byKey('b')]).toEqual(['a:1', 'a:1', 'b:2']);
    changes.applied('space-created');
    expect(byKey('a')).toBe('a:1');
    changes.applied('apikey-revoked');
    expect(byKey('a')).toBe('a:3');
    expect(byKey('b')).toBe('b:4');
    // Full at two keys: a third starts the kept set again.
    expect(byKey('c')).toBe('c:5');
    expect(byKey('a')).toBe('a:6');
    changes.rolledBack();
    expect(byKey('a')).toBe('a:7');
  });
});
