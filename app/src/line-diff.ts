export type DiffRow = { left: string | null; right: string | null; change: 'same' | 'removed' | 'added' | 'changed' };

/**
 * Side-by-side rows of a line diff (longest common subsequence over lines). Bodies past
 * the size a quadratic table affords are compared as they stand, line against line, so a
 * huge row still shows rather than freezing the tab.
 */
export function lineDiff(before: string, after: string, budget = 4_000_000): DiffRow[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > budget) {
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => {
      const l = a[i] ?? null;
      const r = b[i] ?? null;
      return { left: l, right: r, change: l === r ? 'same' : l === null ? 'added' : r === null ? 'removed' : 'changed' };
    });
  }
  const n = a.length;
  const m = b.length;
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i * (m + 1) + j] = a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) rows.push({ left: a[i++]!, right: b[j++]!, change: 'same' });
    // On a tie the removal goes first, so a replaced line pairs up as one change below.
    else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) rows.push({ left: a[i++]!, right: null, change: 'removed' });
    else rows.push({ left: null, right: b[j++]!, change: 'added' });
  }
  // A removal right before an addition reads best as one changed line.
  const paired: DiffRow[] = [];
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    const next = rows[k + 1];
    if (r.change === 'removed' && next?.change === 'added') {
      paired.push({ left: r.left, right: next.right, change: 'changed' });
      k++;
    } else paired.push(r);
  }
  return paired;
}
