import { describe, expect, it } from 'vitest';
import { EmbedAnswerInvalid, parseAnswer } from '../../workers/embed/openai-embeddings.js';

const DIMS = 4;
const refusals: Array<[string, unknown, RegExp]> = [
  ['text that is not JSON', '{"data": [ {"index": 0', /not JSON/],
  ['no data array', { object: 'list' }, /data/],
  ['fewer vectors than inputs', { data: [{ index: 0, embedding: [1, 0, 0, 0] }] }, /1 embeddings for 2 inputs/],
  ['a vector of the wrong length', { data: [{ index: 0, embedding: [1, 0] }, { index: 1, embedding: [1, 0, 0, 0] }] }, /2 dimensions, 4 configured/],
  ['a string among the numbers', { data: [{ index: 0, embedding: [1, '0', 0, 0] }, { index: 1, embedding: [1, 0, 0, 0] }] }, /embedding/],
  ['a repeated index', { data: [{ index: 0, embedding: [1, 0, 0, 0] }, { index: 0, embedding: [0, 1, 0, 0] }] }, /index 0 repeated/],
  ['an index out of range', { data: [{ index: 0, embedding: [1, 0, 0, 0] }, { index: 2, embedding: [0, 1, 0, 0] }] }, /index 2/],
  ['an all-zero vector', { data: [{ index: 0, embedding: [0, 0, 0, 0] }, { index: 1, embedding: [0, 1, 0, 0] }] }, /all zeros/],
];

describe('an OpenAI-compatible embeddings answer is checked before any vector is kept', () => {
  for (const [name, answer, message] of refusals) {
    it(`refuses ${name}`, () => {
      const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
      expect(() => parseAnswer(text, 2, DIMS)).toThrow(EmbedAnswerInvalid);
      expect(() => parseAnswer(text, 2, DIMS)).toThrow(message);
    });
  }

  it('returns the vectors in input order, each of unit length', () => {
    const text = JSON.stringify({ data: [{ index: 1, embedding: [0, 3, 0, 4] }, { index: 0, embedding: [2, 0, 0, 0] }], model: 'm', usage: {} });
    const [first, second] = parseAnswer(text, 2, DIMS);
    expect(Array.from(first!)).toEqual([1, 0, 0, 0]);
    expect(Array.from(second!).map((x) => Number(x.toFixed(6)))).toEqual([0, 0.6, 0, 0.8]);
  });
});
