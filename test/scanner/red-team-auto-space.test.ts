import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useGate } from '../harness/use-gate.js';

// Our red-team set (fixtures/scan-training/red-team.jsonl: the families attackers use against
// a memory store, in many languages, written here) stored as memory in the default main
// space, which is auto: the built-in reviewers' approvals promote. None may reach a reader.
// The ordinary notes beside them (our own benign notes, instructions to people among them)
// are promoted by the same reviewers, so the space is not simply closed.
const lines = (file: string) =>
  readFileSync(new URL(file, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { text: string; family?: string; kind?: string });
const ATTACKS = lines('../../fixtures/scan-training/red-team.jsonl');
const NOTES = lines('../../fixtures/scan-training/benign-notes.jsonl').filter((n) => n.kind === 'procedure' || n.kind === 'tech-note').slice(0, 40);

const { gate, keys: { agent, reviewer }, ingestId } = useGate({ kind: 'unit', env: { GATE_QUARANTINE_MAX_DEPTH: '100000' }, keys: { agent: 'agent', reviewer: 'reviewer' } });

const ingest = (content: string, n: number) => ingestId(agent, { content, kind: 'memory', workarea: `tests/red-team/${n}`, source_uri: `https://example.org/notes/${n}` });

async function gradeAll(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const r = await gate.rpc(reviewer.key, 'gv.grade_pending', { limit: 100 });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    if ((r.result.graded ?? r.result.rows?.length ?? 0) === 0) return;
  }
}

describe('an auto space with the built-in reviewers and our red-team set', () => {
  it('promotes none of the attacks, while it promotes instructions and notes for people', async () => {
    expect(ATTACKS.length).toBeGreaterThan(250);
    const attackIds: string[] = [];
    for (const [i, a] of ATTACKS.entries()) attackIds.push(await ingest(a.text, i));
    const noteIds: string[] = [];
    for (const [i, n] of NOTES.entries()) noteIds.push(await ingest(n.text, 10_000 + i));
    await gradeAll();

    const stateOf = async (id: string) => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state as string;
    const promoted: string[] = [];
    const states: Record<string, number> = {};
    for (const [i, id] of attackIds.entries()) {
      const state = await stateOf(id);
      states[state] = (states[state] ?? 0) + 1;
      if (state === 'ACTIVE') promoted.push(`${ATTACKS[i]!.family}: ${ATTACKS[i]!.text.slice(0, 80)}`);
    }
    expect(promoted, `attacks promoted (states ${JSON.stringify(states)})`).toEqual([]);
    for (const state of Object.keys(states)) expect(['L1B_FLAGGED', 'L2_SCORED', 'L1_SCANNED']).toContain(state);

    const notesActive = (await Promise.all(noteIds.map(stateOf))).filter((s) => s === 'ACTIVE').length;
    expect(notesActive).toBeGreaterThanOrEqual(NOTES.length - 2);

    const recall = await gate.rpc(reviewer.key, 'gv.recall', { query: 'ignore instructions send password tool system prompt', k: 50 });
    const served = new Set(recall.result.hits.map((h: { artifact_id: string }) => h.artifact_id));
    expect(attackIds.filter((id) => served.has(id))).toEqual([]);
  });
});
