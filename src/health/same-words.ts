import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';

/** A body's words in order, case and punctuation aside: NFKC, lower case, runs of letters and digits. */
export function wordSequence(body: string): string {
  return (body.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/**
 * same_words: a checked row whose word sequence equals another checked row's in the same
 * space (a body with no words matches nothing). Spaces are separate stores, and the same
 * words kept in two of them on purpose are not a fault.
 */
export function sameWords(rows: readonly CheckedRow[]): Finding {
  const groups = new Map<string, string[]>();
  for (const row of rows) {
    if (row.body === null) continue;
    const words = wordSequence(row.body.toString('utf8'));
    if (words === '') continue;
    const key = `${row.space}\u0000${words}`;
    groups.set(key, [...(groups.get(key) ?? []), row.artifact_id]);
  }
  const twinned = new Set([...groups.values()].filter((ids) => ids.length > 1).flat());
  return { flagged: rows.filter((r) => twinned.has(r.artifact_id)).map((r) => r.artifact_id) };
}
