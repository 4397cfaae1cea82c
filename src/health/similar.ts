import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';
import { wordSequence } from './same-words.js';
import type { Store } from '../store/store.js';
import type { RecallPart } from '../recall/recall-part.js';
import type { PipelinePart } from '../../pipeline/pipeline-part.js';

/** similar: cosine at least this between two rows (docs/protocol.md#gvhealth). */
export const SIMILAR_MIN_COSINE = 0.92;
/** Neighbours asked per row: enough to look past a few same-words twins to a merely similar row. */
const NEIGHBOURS = 4;
/** One search per checked row; past this much searching the check stops and says its count is a floor. */
export const SIMILAR_BUDGET_MS = 5000;
/**
 * Rows searched between two turns of the event loop: a search is about a millisecond, and
 * 2,000 of them in one go would hold every other caller of the gate for seconds.
 */
const ROWS_PER_TURN = 50;

/** Which of the rows have a stored vector (the store's vectorCodes read model says why it reads the index's table). */
function embeddedRowids(house: { readonly store: Store }, rows: readonly CheckedRow[]): Set<number> {
  return new Set(house.store.vectorCodes.embeddedAmong(rows.map((r) => r.rowid)));
}

/**
 * similar: a checked row with another ACTIVE row of its space (checked or not) at cosine at
 * least 0.92, its same-words twins aside (same_words already tells those). A row the vector
 * index has not embedded yet is not looked at, and a row whose vector has not yet moved to
 * the promoted rows' partition (the index is written after the answer that promoted it) is
 * missed by the others' searches: either makes the check not computed, saying how many. A
 * check cut short by its time budget says its count is a floor.
 */
export async function similar(house: { readonly store: Store; readonly recall: RecallPart; readonly pipeline: PipelinePart }, rows: readonly CheckedRow[]): Promise<Finding> {
  if (rows.length === 0) return { flagged: [] };
  const embedded = embeddedRowids(house, rows);
  const wordsOf = new Map<number, string>();
  const words = (rowid: number) => {
    let w = wordsOf.get(rowid);
    if (w === undefined) {
      const row = house.store.artifacts.byRowid(rowid);
      const body = row === undefined ? null : house.store.artifacts.servedBody(row);
      w = body === null ? '' : wordSequence(body);
      wordsOf.set(rowid, w);
    }
    return w;
  };
  for (const r of rows) if (r.body !== null) wordsOf.set(r.rowid, wordSequence(r.body.toString('utf8')));

  const flagged: string[] = [];
  let stoppedAtBound = false;
  let spentMs = 0;
  const searched = rows.filter((r) => embedded.has(r.rowid));
  for (let at = 0; at < searched.length; at += ROWS_PER_TURN) {
    if (spentMs > SIMILAR_BUDGET_MS) {
      stoppedAtBound = true;
      break;
    }
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    for (const row of searched.slice(at, at + ROWS_PER_TURN)) {
      const near = await house.recall.vector.similarTo(row.rowid, [row.space], NEIGHBOURS, SIMILAR_MIN_COSINE);
      const own = words(row.rowid);
      if (near.some((n) => words(n.rowid) !== own)) flagged.push(row.artifact_id);
      else if (near.length === NEIGHBOURS) stoppedAtBound = true;
    }
    spentMs += performance.now() - started;
  }
  // Read after the searches: a row promoted meanwhile, its vector still on its way to the promoted
  // rows' partition, may have been missed by every other row's search.
  const unplaced = new Set(house.pipeline.embed.unplaced(rows.map((r) => r.rowid)));
  const missing = rows.filter((r) => !embedded.has(r.rowid)).length;
  const moving = rows.filter((r) => embedded.has(r.rowid) && unplaced.has(r.rowid)).length;
  const pending = house.recall.vector.ready.pending;
  if (missing > 0 || moving > 0) {
    const notYet = [
      ...(missing > 0 ? [`${missing} of the ${rows.length} checked rows are not embedded yet`] : []),
      ...(moving > 0 ? [`${moving} of the ${rows.length} checked rows are still moving to the promoted rows' vector partition`] : []),
    ];
    return {
      flagged,
      stoppedAtBound,
      whyNot: `${notYet.join(' and ')} (${pending} rows wait for the vector index); they were not compared`,
    };
  }
  return { flagged, stoppedAtBound };
}
