import { describe, expect, it } from 'vitest';
import { UnitGate } from '../harness/unit-gate.js';
import { configTemplate } from '../../dist/src/config/config-template.js';
import { parse } from 'smol-toml';

describe('the [review] section', () => {
  it('is written into gate.toml with its tables: the local backend, the stances and the quorum profiles', () => {
    const toml = parse(configTemplate()) as any;
    expect(toml.review).toMatchObject({
      quorum_profile: 'standard',
      budget_per_day: 200000,
      grade_every: '10m',
      stances: { positive: 'local', critical: 'local' },
      backends: { local: { kind: 'local' } },
    });
    expect(toml.review.quorum_profiles.standard).toEqual({ k: { 'T-1': 1, 'T-2': 2, 'T-3': 2, 'T-4': 1, 'T-5': 2 }, people: { 'T-4': 1, 'T-5': 1 } });
  });

  it('a profile, stance or second opinion naming nothing stops the start with a sentence naming what exists', async () => {
    await expect(UnitGate.open({ env: { GATE_REVIEW_QUORUM_PROFILE: 'nope' } })).rejects.toThrow(/review\.quorum_profile names nope; the profiles are: standard, solo-reviewer/);
    await expect(UnitGate.open({ env: { GATE_REVIEW_STANCES: '{"positive":"local","critical":"gpt"}' } })).rejects.toThrow(
      /review\.stances\.critical names backend gpt; the backends are: local/,
    );
    await expect(UnitGate.open({ env: { GATE_REVIEW_STANCES: '{"positive":"local"}' } })).rejects.toThrow(/positive \(the first pass\) and critical/);
    await expect(UnitGate.open({ env: { GATE_REVIEW_BACKENDS: '{"x":{"kind":"openai","model":"m"}}' } })).rejects.toThrow(/review\.backends/);
    await expect(UnitGate.open({ env: { GATE_REVIEW_GRADE_EVERY: 'often' } })).rejects.toThrow(/review\.grade_every/);
  });
});
