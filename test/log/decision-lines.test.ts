import { describe, expect, it } from 'vitest';
import { uniqueText } from '../harness/gate-process.js';
import { modelEnv, useModelServer } from '../harness/fake-model-server.js';
import { useGate } from '../harness/use-gate.js';
import { parsed, until } from './log-lines.js';

const server = useModelServer();
const { gate, keys: { agent, reviewer }, ingestAnswer } = useGate({ env: () => modelEnv(server, { env: { GATE_LOG_FORMAT: 'json' } }), keys: { agent: 'agent', reviewer: 'reviewer' } });
const lines = () => parsed(gate.stderr);

describe('grading runs, backend failures, promotions and gv.rebuild are logged at the default level', () => {
  it('a grading run, with a line per backend failure naming its kind, and never the backend key', async () => {
    const ingest = (content: string) => ingestAnswer(agent, { content, workarea: 'notes', source_uri: 'test://log/grade' });
    const failing = (await ingest(`${uniqueText('failing')} [[500]]`)).result.artifact_id;
    expect((await ingest(uniqueText('graded'))).error).toBeUndefined();
    const run = await gate.rpc(reviewer.key, 'gv.grade_pending', {});
    expect(run.result.failed).toBeGreaterThan(0);
    await until(() => lines().some((l) => l.msg === 'grading run'), 'the grading run');
    const failure = lines().find((l) => l.msg === 'grading backend failed')!;
    expect(failure).toMatchObject({ level: 'warn', backend: 'fake', artifact_id: failing });
    expect(typeof failure['failure']).toBe('string');
    expect(lines().find((l) => l.msg === 'grading run')).toMatchObject({ level: 'info', by: reviewer.identity, failed: run.result.failed, graded: run.result.graded });
    expect(gate.stderr.join('\n')).not.toContain('sk-test-only-not-a-real-key');
  });

  it('a promotion, once committed, and gv.rebuild', async () => {
    const row = await gate.rpc(agent.key, 'gv.ingest', { content: uniqueText('promoted'), workarea: 'notes', kind: 'memory', source_uri: 'test://log/promote' });
    expect(row.result.state).toBe('L1_SCANNED');
    await gate.readBody(reviewer.key, row.result.artifact_id);
    expect((await gate.rpc(reviewer.key, 'gv.promote', { artifact_id: row.result.artifact_id })).result.state).toBe('ACTIVE');
    expect((await gate.socket('gv.rebuild')).error).toBeUndefined();
    await until(() => lines().some((l) => l.msg.startsWith('gv.rebuild')), 'gv.rebuild');
    expect(lines().find((l) => l.msg === 'promoted' && l['artifact_id'] === row.result.artifact_id)).toMatchObject({
      level: 'info',
      by: reviewer.identity,
      space: 'main',
    });
    expect(lines().find((l) => l.msg.startsWith('gv.rebuild'))).toMatchObject({ level: 'info', by: expect.stringMatching(/^uid:/) });
  });

  it('a ban and its lift, once committed, naming the subject but never a source prefix\'s query', async () => {
    await gate.socket('gv.ban', { kind: 'writer', subject: agent.identity, reason: 'logged', until: Date.now() + 3_600_000 });
    await gate.socket('gv.ban', { kind: 'writer', subject: agent.identity, lift: true });
    await gate.socket('gv.ban', { kind: 'source', subject: 'https://log.example/find?token=secretish', reason: 'logged' });
    await until(() => lines().filter((l) => l.msg === 'banned').length === 2 && lines().some((l) => l.msg === 'ban lifted'), 'the ban lines');
    expect(lines().find((l) => l.msg === 'banned' && l['kind'] === 'writer')).toMatchObject({ level: 'info', subject: agent.identity, by: expect.stringMatching(/^uid:/), until: expect.any(Number) });
    expect(lines().find((l) => l.msg === 'ban lifted')).toMatchObject({ level: 'info', kind: 'writer', subject: agent.identity });
    expect(lines().find((l) => l.msg === 'banned' && l['kind'] === 'source')).toMatchObject({ subject: 'https://log.example/find' });
    expect(gate.stderr.join('\n')).not.toContain('secretish');
  });
});
