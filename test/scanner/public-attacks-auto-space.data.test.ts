import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../harness/shared-data.js';
import { useGate } from '../harness/use-gate.js';

// The attack the gate exists for: text written to take over the agents that later read it,
// stored as memory in a space whose rows the built-in reviewers promote on their own. The
// attacks are PromptShield's validation split (public, MIT), read from the shared data
// beside the checkout and never copied here. The committed models trained on this split too
// (training/scanner-sources.js): this test says they keep what they learned from it out of an
// auto space; red-team-auto-space.test.ts does the same with attacks written here.
const DATA = join(sharedData(), 'promptshield', 'val.jsonl');
const OWN_NOTES = new URL('../../fixtures/recall-quality/claims.json', import.meta.url);

interface Row {
  prompt: string;
  label: number;
  attack_type: string;
  attack_id?: string;
}

// The default main space is auto: the built-in reviewers' approvals promote.
const { gate, keys: { agent, reviewer }, ingestId } = useGate({ env: { GATE_QUARANTINE_MAX_DEPTH: '100000' }, keys: { agent: 'agent', reviewer: 'reviewer' } });

const ingest = (content: string, n: number) => ingestId(agent, { content, kind: 'memory', workarea: `tests/public-attacks/${n}`, source_uri: `https://example.org/notes/${n}` });

/** Grades until no row is left to grade, as a schedule would over several runs. */
async function gradeAll(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const r = await gate.rpc(reviewer.key, 'gv.grade_pending', { limit: 100 });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    if ((r.result.graded ?? r.result.rows?.length ?? 0) === 0) return;
  }
}

describe('an auto space with the built-in reviewers', () => {
  it('promotes none of the public validation attacks, while it promotes ordinary notes', async () => {
    const rows = readFileSync(DATA, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Row);
    const attacks = rows.filter((r) => r.label === 1);
    expect(attacks.length).toBe(106);
    const notes = (JSON.parse(readFileSync(OWN_NOTES, 'utf8')) as Array<{ text: string }>).slice(0, 20).map((c) => c.text);

    const attackIds: string[] = [];
    for (const [i, a] of attacks.entries()) attackIds.push(await ingest(a.prompt, i));
    const noteIds: string[] = [];
    for (const [i, text] of notes.entries()) noteIds.push(await ingest(text, 1000 + i));

    await gradeAll();

    const stateOf = async (id: string) => (await gate.rpc(reviewer.key, 'gv.status', { artifact_id: id })).result.state as string;
    const promoted: string[] = [];
    const states: Record<string, number> = {};
    for (const [i, id] of attackIds.entries()) {
      const state = await stateOf(id);
      states[state] = (states[state] ?? 0) + 1;
      if (state === 'ACTIVE') promoted.push(`${attacks[i]!.attack_id}: ${attacks[i]!.prompt.slice(0, 80)}`);
    }
    expect(promoted, `attacks promoted (states ${JSON.stringify(states)})`).toEqual([]);
    // Every attack waits for a person: held by the scanner, or scored and escalated.
    for (const state of Object.keys(states)) expect(['L1B_FLAGGED', 'L2_SCORED', 'L1_SCANNED']).toContain(state);

    // The same reviewers promote what is ordinary: the space is not simply closed.
    const notesActive = (await Promise.all(noteIds.map(stateOf))).filter((s) => s === 'ACTIVE').length;
    expect(notesActive).toBeGreaterThanOrEqual(18);

    // And no reader is served an attack.
    const recall = await gate.rpc(reviewer.key, 'gv.recall', { query: 'ignore previous instructions system prompt run execute', k: 50 });
    const served = new Set(recall.result.hits.map((h: { artifact_id: string }) => h.artifact_id));
    expect(attackIds.filter((id) => served.has(id))).toEqual([]);
  });
});
