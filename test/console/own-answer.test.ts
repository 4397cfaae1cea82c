import { describe, expect, it } from 'vitest';
import { standingAnswerOf, type CitingRow } from '../../app/src/own-answer.js';

// Which of a person's answers to a question still stands, as the questions screen reads it
// from gv.graph's cited_by (app/src/own-answer.ts), by the gate's rule for a second answer
// (src/questions/answer-standing.ts).

const me = 'https://gate.example|ada';
const row = (artifact_id: string, over: Partial<CitingRow> = {}): CitingRow => ({ artifact_id, kind: 'answer', state: 'L1_SCANNED', writer_identity: me, ...over });

describe('standingAnswerOf', () => {
  it("finds the person's held or served answer, not another writer's nor another kind of row", () => {
    expect(standingAnswerOf([row('a1', { writer_identity: 'https://gate.example|bob' }), row('n1', { kind: 'memory' })], me)).toBeUndefined();
    expect(standingAnswerOf([row('a1', { writer_identity: 'https://gate.example|bob' }), row('a2', { state: 'ACTIVE' })], me)?.artifact_id).toBe('a2');
  });

  it('passes over an answer turned down, withdrawn, or replaced by a live one', () => {
    expect(standingAnswerOf([row('a1', { state: 'REJECTED' })], me)).toBeUndefined();
    expect(standingAnswerOf([row('a1'), row('w1', { cancels: 'a1' })], me)).toBeUndefined();
    expect(standingAnswerOf([row('a1'), row('a2', { replaces: 'a1' })], me)?.artifact_id).toBe('a2');
    // A replacement that was itself turned down leaves the first standing.
    expect(standingAnswerOf([row('a1'), row('a2', { replaces: 'a1', state: 'REJECTED' })], me)?.artifact_id).toBe('a1');
  });
});
