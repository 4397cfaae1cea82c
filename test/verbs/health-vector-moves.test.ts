import { describe, expect, it } from 'vitest';
import { appendPromotion } from '../../dist/src/review/promotion.js';
import { useGate } from '../harness/use-gate.js';

/**
 * gv.health's similar check searches the promoted rows' vector partition, which the embed
 * stage writes after the answer, in batches. A row embedded while held and promoted in the
 * very transaction that writes its vector (the batch and the promotion committed together)
 * must still reach that partition, and until it has, similar is not computed: it never says
 * `computed: true` while a checked row's vector is on its way.
 *
 * No surface can place a promotion inside the embed stage's write, so the promotion is made
 * here, in-process, by the gate's own appendPromotion inside a write of the journal writer
 * that runs right after the stage's vector write in one group commit.
 */
const { gate: server, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  settings: {
    'spaces.main_policy': 'auto',
    'review.quorum_profile': 'solo-reviewer',
    'review.grade_every': 'off',
    // Commits at least 50 ms apart under load, so the stage's vector write waits long enough for a write queued after it.
    'journal.commit_window_ms': 50,
  },
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const call = async (key: string, method: string, params: Record<string, unknown>) => {
  const r = await server.rpc(key, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};
const ingest = (content: string) => ingestId(agent, { content, workarea: 'health/moves', source_uri: 'test://moves' });
const similar = async () => (await call(reviewer.key, 'gv.health', {})).checks.similar;
const vectorStored = (id: string) =>
  server.gate.db.prepare('SELECT 1 FROM main.vector_codes WHERE rowid = (SELECT rowid FROM main.artifacts WHERE artifact_id = ?)').get(id) !== undefined;

const SENTENCE =
  'The nightly export of the harbour ledger runs at two in the morning and writes the decreasing balance of every berth to the ' +
  'archive volume, after which the reconciliation job compares each entry against the port authority statement and flags gaps';
/** One word apart from SENTENCE (cosine about 0.96 under the local embedding): one per attempt, so no attempt repeats another's bytes. */
const ONE_WORD_APART = ['shrinking', 'falling', 'sinking', 'dwindling', 'declining', 'lessening', 'waning', 'ebbing', 'slipping', 'dropping'];

describe('gv.health similar and the vector partition a promotion moves a row to', () => {
  it('a row promoted in the transaction that writes its vector reaches the promoted partition; until then similar is not computed', async () => {
    const first = await ingest(`${SENTENCE}.`);
    for (let offset = 0; offset !== null; ) {
      const page = await call(reviewer.key, 'gv.node', { artifact_id: first, body: true, ...(offset === 0 ? {} : { offset }) });
      offset = page.masked_next_offset ?? null;
    }
    await call(reviewer.key, 'gv.promote', { artifact_id: first });
    for (let i = 0; i < 100 && !(await similar()).computed; i++) await new Promise((r) => setTimeout(r, 50));

    // Each attempt: a held row one word apart, embedded after its ingest; writes queued every turn
    // until one runs in the same transaction as the stage's write of its vector, after it, and
    // promotes it there. An attempt whose vector was written before a write could follow it is
    // tried again with a new row.
    let second: string | null = null;
    for (let attempt = 0; attempt < ONE_WORD_APART.length && second === null; attempt++) {
      const candidate = await ingest(`${SENTENCE.replace('decreasing', ONE_WORD_APART[attempt]!)}.`);
      const writes: Promise<boolean>[] = [];
      while (!vectorStored(candidate)) {
        writes.push(
          server.gate.store.writer.write(() => {
            const row = server.gate.store.artifacts.byId(candidate)!;
            // Inside the transaction: stored now means the stage's write ran earlier in this same commit.
            if (row.state !== 'L1_SCANNED' || !vectorStored(candidate)) return false;
            appendPromotion(server.gate, server.gate.review.board.picture(row), reviewer.identity, 'agent');
            return true;
          }),
        );
        await new Promise((r) => setImmediate(r));
      }
      if ((await Promise.all(writes)).some(Boolean)) second = candidate;
    }
    expect(second, 'no write ran in the same commit as the vector write').not.toBeNull();
    expect((await call(reviewer.key, 'gv.status', { artifact_id: second! })).state).toBe('ACTIVE');

    // Every answer from now on is either not computed, saying why, or the pair itself.
    let answer = await similar();
    for (let i = 0; i < 100 && !answer.computed; i++) {
      expect(answer).toMatchObject({ at_least: true, why_not: expect.stringMatching(/not embedded yet|still moving to the promoted rows' vector partition/) });
      await new Promise((r) => setTimeout(r, 50));
      answer = await similar();
    }
    expect(answer).toEqual({ count: 2, at_least: false, artifact_ids: [second, first], computed: true });
  });
});
