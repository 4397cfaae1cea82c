import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { modelEnv, useModelServer } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';

const server = useModelServer();
const { gate, keys: { agent, reviewer }, ingestId } = useGate({
  kind: 'unit',
  env: () => modelEnv(server, { kind: 'anthropic', backend: { circuit_failures: 1000 } }),
  keys: { agent: 'agent', reviewer: 'reviewer' },
});

const held = (content: string) => ingestId(agent, { content, workarea: 'tests/anthropic', source_uri: 'https://example.org/a' });

describe('an anthropic (messages API) backend', () => {
  it('is asked through a forced record_verdict tool call with its own headers, and its answer becomes the verdict', async () => {
    const marker = `anth-${Date.now()}`;
    const id = await held(`${uniqueText('anthropic')} ${marker}`);
    const graded = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
    expect(graded.result.stances.map((s: any) => [s.state, s.decision, s.model_label, s.cost_tokens])).toEqual([
      ['completed', 'approve', 'anthropic:fake-model', 100],
      ['completed', 'approve', 'anthropic:fake-model', 100],
    ]);
    const calls = server.modelCalls().filter((c) => c.prompt.includes(marker));
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.path).toBe('/v1/messages');
      expect(c.apiKey).toBe('sk-test-only-not-a-real-key');
      expect(c.authorization).toBeUndefined();
      expect(c.body.tool_choice).toEqual({ type: 'tool', name: 'record_verdict' });
      expect(c.body.tools[0].input_schema.required).toEqual(['decision', 'score', 'rationale', 'evidence', 'counterevidence']);
    }
  });

  it('a refusal (stop_reason refusal) or a missing tool call is a failed run', async () => {
    for (const [marker, failure] of [['refuse', 'refused'], ['malformed', 'malformed']] as const) {
      const id = await held(`${uniqueText(marker)} [[${marker}]]`);
      const graded = await gate.rpc(reviewer.key, 'gv.grade', { artifact_id: id });
      for (const s of graded.result.stances) expect(s).toMatchObject({ state: 'failed', failure });
      expect(graded.result.state).toBe('L1_SCANNED');
    }
  });

  it('gv.backend_check probes GET /v1/models with the key', async () => {
    const check = await gate.socket('gv.backend_check', {});
    expect(check.result).toMatchObject({ backend: 'fake', reachable: true, credential: 'present', model: 'fake-model', structured_outputs: true });
    expect(server.requests.filter((r) => r.path === '/v1/models').at(-1)!.apiKey).toBe('sk-test-only-not-a-real-key');
  });
});
