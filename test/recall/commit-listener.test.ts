import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessGate } from '../harness/in-process-gate.js';

let g: InProcessGate;
beforeAll(() => {
  g = InProcessGate.open();
});
afterAll(async () => {
  await g?.close();
});

describe('the journal writer announces committed events to its listeners', () => {
  it('announces the seqs a commit made durable, and nothing of a refused write', async () => {
    const heard: Array<{ after: number; last: number }> = [];
    g.gate.store.writer.follow({ committed: (range) => heard.push(range) });
    const before = g.gate.store.journal.chainHead.seq;
    // Two writes in one group commit: the first refuses after appending, the second lands.
    const refused = g.gate.store.writer.write(() => {
      g.gate.store.journal.appendForeign('test-note', 'test', { note: 'rolled back' });
      throw new Error('refused on purpose');
    });
    const landed = g.gate.store.writer.write(() => g.gate.store.journal.appendForeign('test-note', 'test', { note: 'kept' }));
    await expect(refused).rejects.toThrow('refused on purpose');
    const event = await landed;
    expect(event.seq).toBe(before + 1);
    expect(heard).toEqual([{ after: before, last: before + 1 }]);
    const notes = g.gate.db.prepare(`SELECT body FROM journal WHERE type = 'test-note'`).pluck().all() as string[];
    expect(notes.map((b) => JSON.parse(b).data.note)).toEqual(['kept']);
  });

  it('announces nothing for a commit that appended no event', async () => {
    const heard: unknown[] = [];
    g.gate.store.writer.follow({ committed: (range) => heard.push(range) });
    await g.gate.store.writer.write(() => g.gate.db.prepare('SELECT 1').get());
    expect(heard).toEqual([]);
  });
});
