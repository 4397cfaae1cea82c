import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { compareChains } from '../../src/journal/chain-compare.js';

/** How `gate verify --against` tells two journals apart (src/journal/chain-compare.ts), on journals of made-up ids. */
function journal(deploymentId: string, ids: string[]): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE journal (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO journal (seq, event_id, body) VALUES (?, ?, ?)');
  ids.forEach((id, i) => insert.run(i + 1, id, i === 0 ? JSON.stringify({ data: { deployment_id: deploymentId } }) : '{}'));
  return db;
}
const ids = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

describe('compareChains', () => {
  const shared = ids('e', 1, 1000);

  it('the same journal, and one an earlier copy of the other, either way round', () => {
    expect(compareChains(journal('D', shared), journal('D', shared))).toEqual({ relation: 'identical', events: 1000 });
    expect(compareChains(journal('D', shared), journal('D', shared.slice(0, 400)))).toEqual({ relation: 'prefix', shorter: 'other', common: 400, this_events: 1000, other_events: 400 });
    expect(compareChains(journal('D', shared.slice(0, 10)), journal('D', shared))).toMatchObject({ relation: 'prefix', shorter: 'this', common: 10 });
  });

  it('finds the first seq where two chains of one deployment part, wherever it is', () => {
    for (const part of [2, 137, 999, 1000]) {
      const mine = [...shared.slice(0, part - 1), ...ids('a', part, 1200)];
      const theirs = [...shared.slice(0, part - 1), ...ids('b', part, 1100)];
      expect(compareChains(journal('D', mine), journal('D', theirs))).toEqual({
        relation: 'forked',
        common: part - 1,
        common_head: `e${part - 1}`,
        fork_seq: part,
        this_event: `a${part}`,
        other_event: `b${part}`,
        this_events: 1200,
        other_events: 1100,
      });
    }
    // Two homes given one key, each with a genesis of its own: they share nothing.
    expect(compareChains(journal('D', ids('a', 1, 5)), journal('D', ids('b', 1, 5)))).toMatchObject({ relation: 'forked', common: 0, fork_seq: 1 });
  });

  it('says two deployments have nothing to compare', () => {
    expect(compareChains(journal('D', shared), journal('E', shared))).toEqual({ relation: 'other_deployment', this_deployment: 'D', other_deployment: 'E' });
  });
});
