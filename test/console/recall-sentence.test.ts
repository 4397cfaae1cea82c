import { describe, expect, it } from 'vitest';
import { recallSentence } from '../../app/src/recall-sentence.js';

// The search screen's sentence about what gv.recall answered (app/src/recall-sentence.ts):
// English for every level of `answered_by` (docs/recall.md "Recall scopes"), never "at the all".

const hits = (n: number) => Array.from({ length: n }, () => ({}));
const answer = (over: Partial<Parameters<typeof recallSentence>[0]> & { answered_by: Parameters<typeof recallSentence>[0]['answered_by'] }) => ({
  space: null,
  workarea: null,
  paths: [],
  hits: hits(2),
  ...over,
});

describe('recallSentence', () => {
  it('says every space the person can read under scope all', () => {
    expect(recallSentence(answer({ answered_by: { mode: 'hybrid', level: 'all', workarea: null, distance: null } }))).toBe(
      '2 hits, answered by hybrid search across every space you can read.',
    );
    expect(recallSentence(answer({ hits: [], answered_by: { mode: 'hybrid', level: 'all', workarea: null, distance: null } }))).toBe(
      'No hits: hybrid search found nothing across every space you can read.',
    );
  });

  it('names the space, the spaces, and one hit as one', () => {
    expect(recallSentence(answer({ space: 'team', hits: hits(1), answered_by: { mode: 'lexical', level: 'space', workarea: null, distance: null } }))).toBe(
      '1 hit, answered by lexical search in space team.',
    );
    const spaces = [{ space: 'main', workarea: null }, { space: 'team', workarea: null }];
    expect(recallSentence(answer({ paths: spaces, answered_by: { mode: 'vector', level: 'spaces', workarea: null, distance: null } }))).toBe(
      '2 hits, answered by vector search across the spaces main, team.',
    );
  });

  it('names the work area, and how far up from the one asked closest went', () => {
    const asked = { space: 'main', workarea: 'ops/pumps/east' };
    expect(recallSentence(answer({ ...asked, answered_by: { mode: 'hybrid', level: 'workarea', workarea: 'ops/pumps/east', distance: 0 } }))).toBe(
      '2 hits, answered by hybrid search in work area ops/pumps/east of space main.',
    );
    expect(recallSentence(answer({ ...asked, answered_by: { mode: 'hybrid', level: 'workarea', workarea: 'ops/pumps', distance: 1 } }))).toBe(
      '2 hits, answered by hybrid search in work area ops/pumps of space main, 1 level up from work area ops/pumps/east.',
    );
    expect(recallSentence(answer({ ...asked, answered_by: { mode: 'hybrid', level: 'space', workarea: null, distance: 3 } }))).toBe(
      '2 hits, answered by hybrid search in space main, 3 levels up from work area ops/pumps/east.',
    );
    expect(recallSentence(answer({ ...asked, hits: [], answered_by: { mode: 'hybrid', level: 'space', workarea: null, distance: 3 } }))).toBe(
      'No hits: hybrid search found nothing in work area ops/pumps/east or above it, up to the whole of space main.',
    );
  });
});
