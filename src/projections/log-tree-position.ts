const popcount = (n: number) => {
  let count = 0;
  for (let x = n; x > 0; x = Math.floor(x / 2)) count += x % 2;
  return count;
};

const trailingZeros = (n: number) => {
  let count = 0;
  for (let x = n; x % 2 === 0; x /= 2) count += 1;
  return count;
};

/**
 * Where the node of `level` (1 and up) and `idx` is kept: its place in the order nodes are
 * completed (post-order, as a Merkle mountain range numbers its nodes; leaves take places
 * too but are not stored). The node covering leaves [idx * 2^level, (idx + 1) * 2^level) is
 * completed when the leaf count reaches n = (idx + 1) * 2^level; that leaf completes one
 * node per trailing zero bit of n, the highest last, as node 2n - popcount(n) - 1 of the
 * tree of n leaves. Every append's nodes take the largest keys so far: they land on the
 * table's one right-edge page, as journal rows do.
 */
export function nodePosition(level: number, idx: number): number {
  const n = (idx + 1) * 2 ** level;
  return 2 * n - popcount(n) - 1 - (trailingZeros(n) - level);
}
