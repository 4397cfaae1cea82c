import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { useGate } from '../harness/use-gate.js';

// The standard profile: T-4 needs a person, T-3 and T-5 a second authority.
const { gate } = useGate({ kind: 'unit', env: { GATE_REVIEW_QUORUM_PROFILE: 'standard' } });
let reader: string;
let agent: string;

beforeAll(async () => {
  reader = (await gate.key('reader')).key;
  agent = (await gate.key('agent')).key;
  await gate.socket('gv.space_create', { name: 'people-only', policy: 'human' });
});

const policy = async (params: Record<string, unknown>) => {
  const r = await gate.rpc(reader, 'gv.policy', params);
  if (r.error) throw new Error(r.error.message);
  return r.result;
};

describe('gv.policy', () => {
  it('answers the mode, the profile and each class rule of a space, for a reader', async () => {
    const main = await policy({});
    expect(main).toMatchObject({ space: 'main', mode: 'auto', quorum_profile: 'standard', away: false, human_ttl_hours: 336, second_opinion: 'gate-local-rules/1 (deterministic, not an LLM)' });
    expect(main.classes.map((c: { trust_class: string; k: number; people: number; countersign: boolean }) => [c.trust_class, c.k, c.people, c.countersign])).toEqual([
      ['T-1', 1, 0, false],
      ['T-2', 2, 0, false],
      ['T-3', 2, 0, true],
      ['T-4', 1, 1, false],
      ['T-5', 2, 1, true],
    ]);
    const t1 = main.classes[0];
    expect(t1.on_quorum).toBe('promoted_provisional');
    expect(Object.fromEntries(t1.signers.map((s: { class: string; counts: boolean }) => [s.class, s.counts]))).toEqual({ human: true, model: true, agent: true, authority: false, deployment: false });
    expect(t1.settled_by).toEqual(['human', 'deployment', 'agent']);
    expect(main.stances.map((s: { stance: string }) => s.stance)).toEqual(['positive', 'critical']);
  });

  it('a human-reviewed space counts people only, and only a person settles', async () => {
    const human = await policy({ space: 'people-only', trust_class: 'T-5' });
    expect(human.mode).toBe('human');
    expect(human.classes).toHaveLength(1);
    const [t5] = human.classes;
    // Only people count here, so both of T-5's two signatures are people's.
    expect(t5).toMatchObject({ trust_class: 'T-5', k: 2, people: 2, countersign: true, on_quorum: 'ratified', settled_by: ['human'] });
    const agentSigner = t5.signers.find((s: { class: string }) => s.class === 'agent');
    expect(agentSigner).toEqual({ class: 'agent', counts: false, why: "only people's signatures count in a human-reviewed space" });
  });

  it('says what gv.approval counts for a row of that class', async () => {
    for (const [kind, cls] of [['memory', 'T-1'], ['skill', 'T-2'], ['imported_document', 'T-4']] as const) {
      const id = (await gate.rpc(agent, 'gv.ingest', { content: uniqueText(kind), workarea: 'policy/a', kind, source_uri: 'https://example.org/p' })).result.artifact_id;
      const approval = (await gate.rpc(agent, 'gv.approval', { artifact_id: id })).result;
      const [rule] = (await policy({ trust_class: cls })).classes;
      expect([approval.k_required, approval.people_required, approval.mode, approval.quorum_profile], kind).toEqual([rule.k, rule.people, 'auto', 'standard']);
    }
  });

  it('refuses an unknown space naming the spaces, and a class outside the four', async () => {
    const space = await gate.rpc(reader, 'gv.policy', { space: 'nowhere' });
    expect(space.error?.data?.spaces).toEqual(['main', 'people-only']);
    expect((await gate.rpc(reader, 'gv.policy', { trust_class: 'T-9' })).error?.data?.field).toBe('trust_class');
  });
});
