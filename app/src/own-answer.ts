// The person's own answer that stands on a question, read from the rows that name the
// question (gv.graph's `cited_by`), by the rule the gate refuses a second answer with
// (src/questions/answer-standing.ts): an answer/1 row of theirs that is not a withdrawal,
// was not withdrawn, is not turned down or filed away, and was not replaced by a live row.

/** A row naming a question, as gv.graph's `cited_by` lists it (the fields read here). */
export interface CitingRow {
  artifact_id: string;
  kind: string | null;
  state: string;
  writer_identity: string;
  replaces?: string;
  cancels?: string;
}

/** States from which an answer no longer speaks. */
const GONE = new Set(['REJECTED', 'DEMOTED', 'ARCHIVED']);

export function standingAnswerOf(citedBy: readonly CitingRow[], identity: string): CitingRow | undefined {
  const own = citedBy.filter((r) => r.kind === 'answer' && r.writer_identity === identity);
  const live = (r: CitingRow) => !GONE.has(r.state);
  const withdrawn = new Set(own.flatMap((r) => (r.cancels === undefined ? [] : [r.cancels])));
  const replaced = new Set(own.filter(live).flatMap((r) => (r.replaces === undefined ? [] : [r.replaces])));
  return own.find((r) => r.cancels === undefined && !withdrawn.has(r.artifact_id) && live(r) && !replaced.has(r.artifact_id));
}
