import { describe, expect, it } from 'vitest';
import { countQuorum, quorumRule, settlerProblem } from '../../dist/src/review/quorum.js';
import { waitsFor } from '../../dist/src/review/blockers.js';

/**
 * The counting rules on their own, for what no surface can reach yet: trust classes T-3 and
 * T-5 (no verb ingests them before bundles and maps exist) and the per-signer condition.
 */
const standard = { k: { 'T-1': 1, 'T-2': 2, 'T-3': 2, 'T-4': 1, 'T-5': 2 }, people: { 'T-4': 1, 'T-5': 1 } };
let seq = 0;
const sig = (signer: string, cls: string, decision = 'approve', stance: string | null = null, type = 'manual-sign') => ({
  signer,
  class: cls as any,
  type,
  decision,
  stance,
  seq: ++seq,
});
const facts = (count: ReturnType<typeof countQuorum>, rule: ReturnType<typeof quorumRule>, mode: 'human' | 'model' | 'auto') => ({
  state: 'L2_SCORED',
  mode,
  rule,
  count,
  veto: false,
  heldOnRescan: false,
  findingConfirmed: false,
  // Every configured stance answered: what is left is the count itself.
  stances: [],
  away: false,
  operatorObjections: 0,
  contradictsPromoted: false,
  detection: null,
  agentSteering: false,
  gradingUnavailable: null,
  rubric: 'gate-rubric/1',
});

describe('quorum', () => {
  it('T-5 needs two signatures, one of them a person, and then a countersign: ratified, not promoted', () => {
    const rule = quorumRule(standard, 'T-5', 'auto');
    expect(rule).toEqual({ k: 2, people: 1, countersign: true });
    const models = countQuorum(rule, 'auto', 'key:w', [sig('openai:a', 'model', 'approve', 'positive', 'verdict'), sig('anthropic:b', 'model', 'approve', 'positive', 'verdict')]);
    expect(models).toMatchObject({ k_have: 2, people_have: 0, met: false });
    expect(waitsFor(facts(models, rule, 'auto'))).toMatchObject({ blocker: 'human_required', code: 'people', missing: { signatures: 0, people: 1 } });
    const met = countQuorum(rule, 'auto', 'key:w', [sig('openai:a', 'model', 'approve', 'positive', 'verdict'), sig('iss|alice', 'human')]);
    expect(met.met).toBe(true);
    expect(waitsFor(facts(met, rule, 'auto'))).toMatchObject({ blocker: 'quorum', code: 'ratify' });
    expect(waitsFor({ ...facts(met, rule, 'auto'), state: 'L3_RATIFIED' })).toMatchObject({ blocker: 'quorum', code: 'countersign' });
  });

  it('a model counts once per label, and only when its newest verdict for every stance approves', () => {
    const rule = quorumRule(standard, 'T-2', 'model');
    const count = countQuorum(rule, 'model', 'key:w', [
      sig('openai:a', 'model', 'reject', 'critical', 'verdict'),
      sig('openai:a', 'model', 'approve', 'positive', 'verdict'),
      sig('openai:a', 'model', 'approve', 'critical', 'verdict'),
      sig('anthropic:b', 'model', 'approve', 'positive', 'verdict'),
      sig('anthropic:b', 'model', 'reject', 'critical', 'verdict'),
    ]);
    expect(count).toMatchObject({ k_have: 1, met: false, model_rejects: ['anthropic:b'] });
  });

  it("the writer never counts; neither the deployment nor an authority votes; agents and models not in human mode", () => {
    const rule = quorumRule(standard, 'T-1', 'human');
    const count = countQuorum(rule, 'human', 'iss|writer', [
      sig('iss|writer', 'human'),
      sig('key:r', 'agent', 'promote', null, 'promote'),
      sig('deployment', 'deployment', 'promote', null, 'promote'),
      sig('org', 'authority', 'promote', null, 'promote'),
    ]);
    expect(count.k_have).toBe(0);
    expect(count.signers.map((s: any) => s.why)).toEqual([
      'the writer never counts toward its own row',
      "only people's signatures count in a human-reviewed space",
      'the deployment signs a promotion, it does not vote for one',
      "an authority's countersign is counted apart from k",
    ]);
    expect(countQuorum(quorumRule(standard, 'T-1', 'auto'), 'auto', 'iss|writer', [sig('key:r', 'agent', 'promote', null, 'promote')]).met).toBe(true);
  });

  it("in human review every one of the k is a person's: people_required is never below k_required", () => {
    expect(['T-1', 'T-2', 'T-4', 'T-5'].map((c) => quorumRule(standard, c, 'human').people)).toEqual([1, 2, 1, 2]);
    expect(['T-1', 'T-2', 'T-4', 'T-5'].map((c) => quorumRule(standard, c, 'model').people)).toEqual([0, 0, 1, 1]);
    const rule = quorumRule(standard, 'T-2', 'human');
    const one = countQuorum(rule, 'human', 'key:w', [sig('iss|alice', 'human'), sig('openai:a', 'model', 'approve', 'positive', 'verdict')]);
    expect(one).toMatchObject({ k_have: 1, people_required: 2, people_have: 1, met: false });
    expect(waitsFor(facts(one, rule, 'human'))).toMatchObject({ blocker: 'human_required', code: 'people', missing: { signatures: 1, people: 1 } });
  });

  it('a per-signer condition can refuse a signature its reason', () => {
    const rule = quorumRule(standard, 'T-1', 'human');
    const count = countQuorum(rule, 'human', 'key:w', [sig('iss|alice', 'human')], (signer: string) => (signer === 'iss|alice' ? 'not served every attachment' : null));
    expect(count).toMatchObject({ k_have: 0, met: false });
    expect(count.signers[0].why).toBe('not served every attachment');
  });

  it("a model's rejection waits for a person however many keys approve; a person's approval answers it", () => {
    const rule = quorumRule(standard, 'T-1', 'auto');
    const rejected = sig('gate-local', 'model', 'reject', 'critical', 'verdict');
    const keys = countQuorum(rule, 'auto', 'key:w', [rejected, sig('key:r1', 'agent'), sig('key:r2', 'agent')]);
    expect(keys).toMatchObject({ k_have: 2, met: true, model_rejects: ['gate-local'] });
    expect(waitsFor(facts(keys, rule, 'auto'))).toMatchObject({ blocker: 'human_required', code: 'model_rejected' });
    const person = countQuorum(rule, 'auto', 'key:w', [rejected, sig('key:r1', 'agent'), sig('iss|alice', 'human')]);
    expect(waitsFor(facts(person, rule, 'auto'))).toMatchObject({ blocker: 'quorum', code: 'settle' });
  });

  it("an agent's steering row and a row owed the detector's verdict say what they wait for", () => {
    const rule = quorumRule(standard, 'T-1', 'auto');
    const met = countQuorum(rule, 'auto', 'key:w', [sig('gate-local', 'model', 'approve', 'positive', 'verdict')]);
    expect(waitsFor({ ...facts(met, rule, 'auto'), agentSteering: true })).toMatchObject({ blocker: 'quorum', code: 'agent_steering' });
    // The detector is part of the scan: its wait comes before anything review decides.
    const detecting = { blocker: 'semantic_review' as const, code: 'detecting', words: 'waiting for the injection detector' };
    expect(waitsFor({ ...facts(met, rule, 'auto'), detection: detecting, agentSteering: true })).toEqual(detecting);
  });

  it('who settles: a person anywhere; an agent or the deployment only in auto review', () => {
    expect(settlerProblem('human', 'human')).toBeNull();
    expect(settlerProblem('model', 'agent')).toContain('signed-in person settles');
    expect(settlerProblem('auto', 'deployment')).toBeNull();
  });
});
