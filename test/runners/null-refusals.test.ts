import { describe, expect, it } from 'vitest';
import { crewSettings, issueKey } from '../harness/crews.js';
import { useGate } from '../harness/use-gate.js';

// Issue 36: every refusal names the field that was wrong. A null given for a runner verb's
// field was refused naming another field (runner_set's repository, managed_settings and
// base_url answered "missing field: runner"; runner_assign's runner "missing field: space").
// Where docs/runners.md makes null a value (clear, release, the default provider) it is one.
const { gate } = useGate({ kind: 'in-process', settings: crewSettings() });

describe('null refusals on the runner verbs name the field that was null', () => {
  it('gv.runner_set: a null repository, managed_settings or base_url is a value (cleared, the default provider), never a refusal naming runner', async () => {
    const runner = await issueKey(gate, 'runner');
    for (const field of ['repository', 'managed_settings', 'base_url']) {
      const answer = await gate.socket('gv.runner_set', { runner: runner.keyId, [field]: null });
      expect(answer.error, `${field}: ${JSON.stringify(answer.error)}`).toBeUndefined();
      if (field !== 'base_url') expect(answer.result.settings[field]).toBeNull();
    }
    // A field that may not be null is refused naming that field.
    for (const field of ['paused', 'max_running', 'command']) {
      const answer = await gate.socket('gv.runner_set', { runner: runner.keyId, [field]: null });
      expect(answer.error, field).toMatchObject({ code: -32602, data: { field } });
    }
    const runnerNull = await gate.socket('gv.runner_set', { runner: null });
    expect(runnerNull.error).toMatchObject({ code: -32602, data: { field: 'runner' } });
  });

  it('gv.runner_assign: a null space names space; a null runner with a space releases it, with none names space as missing', async () => {
    const runner = await issueKey(gate, 'runner');
    const nullSpace = await gate.socket('gv.runner_assign', { space: null, runner: runner.keyId });
    expect(nullSpace.error).toMatchObject({ code: -32602, data: { field: 'space' } });
    expect(nullSpace.error.message).toMatch(/null/);
    expect((await gate.socket('gv.runner_assign', { space: 'main', runner: null })).result).toMatchObject({ space: 'main', to: null });
    const noSpace = await gate.socket('gv.runner_assign', { runner: null });
    expect(noSpace.error).toMatchObject({ code: -32602, message: 'missing field: space', data: { field: 'space' } });
  });
});
