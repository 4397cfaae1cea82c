import { expect } from 'vitest';
import { uniqueText, type GateProcess, type RpcAnswer } from './gate-process.js';

/** A gate with the calls these rows are written through: a process gate's or the unit layer's. */
type VerbGate = Pick<GateProcess, 'rpc' | 'socket' | 'readBody'>;

/**
 * The rows a replacement group is made of, written through the real verbs: a held row
 * (an agent's ingest) and an ACTIVE row (an ingest a reviewer promotes).
 */
export class ReplacementRows {
  constructor(
    private readonly gate: VerbGate,
    private readonly writer: string,
    private readonly promoter: string,
    private readonly workarea = 'tests/replacement',
  ) {}

  async held(extra: Record<string, unknown> = {}, key = this.writer): Promise<string> {
    const answer = await this.gate.rpc(key, 'gv.ingest', {
      content: uniqueText('replacement'),
      workarea: this.workarea,
      kind: 'memory',
      source_uri: 'test://replacement',
      ...extra,
    });
    expect(answer.error).toBeUndefined();
    return answer.result.artifact_id as string;
  }

  async active(extra: Record<string, unknown> = {}): Promise<string> {
    const id = await this.held(extra);
    await this.gate.readBody(this.promoter, id);
    const promoted = await this.gate.rpc(this.promoter, 'gv.promote', { artifact_id: id });
    expect(promoted.result?.state).toBe('ACTIVE');
    return id;
  }

  async state(id: string): Promise<string> {
    return (await this.gate.socket('gv.status', { artifact_id: id })).result.state as string;
  }
}

/** The group's own revision as gv.replacements answers it, for gv.replacement_activate. */
export async function revisionOf(gate: Pick<GateProcess, 'rpc'>, key: string, groupId: string): Promise<string> {
  const answer = await gate.rpc(key, 'gv.replacements', { group_id: groupId });
  expect(answer.result.groups).toHaveLength(1);
  return answer.result.revision as string;
}

export function expectRefusal(answer: RpcAnswer, code: number, reason?: string): void {
  expect(answer.result, JSON.stringify(answer.result)).toBeUndefined();
  expect(answer.error?.code).toBe(code);
  if (reason !== undefined) expect(answer.error?.data?.reason).toBe(reason);
}
