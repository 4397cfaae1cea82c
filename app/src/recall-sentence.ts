import type { VerbAnswer } from '../../src/verbs/verb-types.js';

// What a search answered, said as a sentence: how many hits, by which mode, and where the
// answer came from (gv.recall's `answered_by`, docs/recall.md "Recall scopes").

type Recall = Pick<VerbAnswer<'gv.recall'>, 'answered_by' | 'space' | 'workarea' | 'paths'> & { hits: readonly unknown[] };

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const levelsUp = (distance: number) => count(distance, 'level', 'levels');

/** Where the hits come from: every readable space, the spaces named, a space, or a work area (and how far up from the one asked). */
function where(r: Recall): string {
  const { level, workarea, distance } = r.answered_by;
  if (level === 'all') return 'across every space you can read';
  if (level === 'spaces') {
    const spaces = [...new Set(r.paths.map((p) => p.space))];
    return spaces.length === 1 ? `in space ${spaces[0]}` : `across the spaces ${spaces.join(', ')}`;
  }
  const space = r.space ?? '';
  // closest walks up from the work area asked for: say how far it went before a level had hits.
  const above = distance !== null && distance > 0 && r.workarea !== null ? `, ${levelsUp(distance)} up from work area ${r.workarea}` : '';
  if (level === 'space') return `in space ${space}${above}`;
  return `in work area ${workarea ?? ''} of space ${space}${above}`;
}

export function recallSentence(r: Recall): string {
  const { mode, level, distance } = r.answered_by;
  if (r.hits.length > 0) return `${count(r.hits.length, 'hit', 'hits')}, answered by ${mode} search ${where(r)}.`;
  // Nothing at any level: closest walked from the work area up to the whole space.
  if (level === 'space' && distance !== null && distance > 0 && r.workarea !== null) {
    return `No hits: ${mode} search found nothing in work area ${r.workarea} or above it, up to the whole of space ${r.space ?? ''}.`;
  }
  return `No hits: ${mode} search found nothing ${where(r)}.`;
}
