import type { Verb } from './define-verb.js';
import { HOUSE_PARTS } from './house.js';

/** The middle of a sorted list of counts (the lower of the two middles when the list is even). */
function median(sorted: readonly number[]): number {
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

/**
 * The verb-by-part table, as markdown: a row per verb (by name), a column per part of the house,
 * a mark where the verb's `uses` names the part, and a line saying how many parts a verb is
 * handed. scripts/verb-parts.mjs prints it into docs/architecture.md ("What each verb uses");
 * test/docs/verb-parts.test.ts fails while the document holds another.
 */
export function verbPartsTable(verbs: readonly Pick<Verb, 'name' | 'uses'>[]): string {
  const rows = [...verbs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const header = `| verb | ${HOUSE_PARTS.join(' | ')} | parts |`;
  const rule = `| ---- | ${HOUSE_PARTS.map((p) => '-'.repeat(p.length)).join(' | ')} | ----- |`;
  const lines = rows.map((v) => {
    const marks = HOUSE_PARTS.map((p) => (v.uses.includes(p) ? 'x' : ' ')).join(' | ');
    return `| \`${v.name}\` | ${marks} | ${v.uses.length} |`;
  });
  const counts = rows.map((v) => v.uses.length).sort((a, b) => a - b);
  const byPart = HOUSE_PARTS.map((p) => `\`${p}\` ${rows.filter((v) => v.uses.includes(p)).length}`).join(', ');
  const summary =
    `${rows.length} verbs, each handed ${counts[0] ?? 0} to ${counts.at(-1) ?? 0} of the ${HOUSE_PARTS.length} parts ` +
    `(median ${median(counts)}). Verbs using each part: ${byPart}.`;
  return [header, rule, ...lines, '', summary].join('\n');
}
