import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { DeploymentKey } from '../../src/credentials/deployment-key.js';
import { JournalWriter } from '../../src/journal/group-commit.js';
import { Journal } from '../../src/journal/journal.js';
import { createJournalSchema } from '../../src/journal/schema.js';
import { digestQueries, Projections } from '../../src/projections/projections.js';
import { makeReadModels } from '../../src/projections/read-models.js';
import { rebuildAndCompare } from '../../src/projections/rebuild.js';
import { dropViews } from '../../src/projections/view-version.js';
import { VIEW_LIST } from '../../src/projections/view-list.js';
import { rankProbeView, type RankProbeReads } from './rank-probe-view.js';

/**
 * The worked example of docs/architecture.md, "Adding a view", made: a view declared in its
 * own module (rank-probe-view.ts) and exactly the two edits the page lists beside it, its name
 * in the `folds` of the event it folds (`rank`, in src/journal/catalogue/curation.ts) and its
 * declaration in the view list (src/projections/view-list.ts), made here as mocks of those two
 * modules. With no other edit, the real journal, reducers, rebuild and read models make its
 * table, fold its events, digest and rebuild it, serve its reads and drop it with the views.
 */
vi.mock('../../src/journal/catalogue/curation.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/journal/catalogue/curation.js')>();
  const { rank } = original.CURATION_EVENTS;
  return { ...original, CURATION_EVENTS: { ...original.CURATION_EVENTS, rank: { ...rank, folds: [...rank.folds, 'rank-probe'] } } };
});
vi.mock('../../src/projections/view-list.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/projections/view-list.js')>();
  const { rankProbeView: added } = await import('./rank-probe-view.js');
  return { ...original, VIEW_LIST: [...original.VIEW_LIST, added] };
});

describe('a view added as docs/architecture.md says (rank-probe)', () => {
  let home: string;
  let db: Database.Database;
  let journal: Journal;
  let writer: JournalWriter;
  const tablesOf = (schema: string) =>
    (db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table'`).pluck().all() as string[]).sort();
  const weigh = (artifact_id: string, by: string, weight: number) =>
    writer.write(() => journal.append('rank', by, { artifact_id, space: 'main', audience: 'everyone', weight }));

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'adding-a-view-'));
    db = new Database(join(home, 'gate.db'));
    createJournalSchema(db);
    journal = new Journal(db, DeploymentKey.openOrCreate(join(home, 'deployment.key')), systemClock, new Projections(db, 'main'));
    writer = new JournalWriter(db, journal, { maxBatch: 64, windowMs: 0 });
  });
  afterAll(() => {
    db?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('is listed, and handles what the catalogue has fold into it, read from the catalogue', () => {
    expect(VIEW_LIST.at(-1)).toBe(rankProbeView);
    expect(rankProbeView.handles).toEqual(['rank']);
  });

  it('has its table made with the views, and the digest covering it', () => {
    expect(tablesOf('main')).toContain('rank_probe');
    expect(Object.keys(digestQueries('main'))).toContain('rank_probe');
  });

  it('folds its events beside the views that folded them before, and serves its reads as a read model of the store', async () => {
    await weigh('row-a', 'key:one', 2);
    await weigh('row-a', 'key:two', 1);
    await weigh('row-a', 'key:one', 0);
    await weigh('row-b', 'key:one', 3);
    const reads = makeReadModels({ db, viewChanges: journal.viewChanges }) as unknown as { rankProbe: RankProbeReads; ranks: { totals(id: string, audience: string): { sum: number; n: number } } };
    expect(reads.rankProbe.timesWeighted('row-a')).toBe(3);
    expect(reads.rankProbe.timesWeighted('row-b')).toBe(1);
    expect(reads.rankProbe.timesWeighted('row-c')).toBe(0);
    // The view listed before it still folds the same events.
    expect(reads.ranks.totals('row-a', 'everyone')).toEqual({ sum: 1, n: 1 });
  });

  it('is rebuilt from the journal and compared by its digest: equal as folded, unequal once its live table differs', () => {
    const scratch = join(home, 'rebuild.db');
    const report = rebuildAndCompare(db, scratch);
    expect(report.events).toBe(4);
    expect(report.tables.rank_probe?.equal).toBe(true);
    expect(report.equal).toBe(true);
    db.prepare("UPDATE rank_probe SET weighted = 7 WHERE artifact_id = 'row-b'").run();
    const changed = rebuildAndCompare(db, scratch);
    expect(changed.tables.rank_probe?.equal).toBe(false);
    expect(Object.entries(changed.tables).filter(([, t]) => !t.equal).map(([table]) => table)).toEqual(['rank_probe']);
  });

  it('is dropped with the views when their shape changes', () => {
    dropViews(db);
    expect(tablesOf('main')).not.toContain('rank_probe');
    expect(tablesOf('main')).not.toContain('ranks');
    expect(tablesOf('main')).toContain('journal');
  });
});
