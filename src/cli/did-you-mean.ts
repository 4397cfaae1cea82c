/**
 * The known name closest to a mistyped one, for "did you mean": the optimal string alignment
 * distance (an edit is an insertion, a deletion, a substitution or two neighbours swapped),
 * at most 2 edits and less than half the word; undefined when nothing is that close, or
 * when two names are equally close (a guess between them would mislead).
 */
export function closestName(word: string, names: Iterable<string>): string | undefined {
  const limit = Math.min(2, Math.floor((word.length - 1) / 2));
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const name of names) {
    const d = editDistance(word, name);
    if (d > limit || d > bestDistance) continue;
    if (d === bestDistance) tie = true;
    else [best, bestDistance, tie] = [name, d, false];
  }
  return tie ? undefined : best;
}

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // d[i][j]: the distance between a's first i characters and b's first j.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
