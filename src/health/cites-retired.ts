import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';
import type { Store } from '../store/store.js';

/** States in which a row no longer stands for what it said: a citation of it is out of date. */
export const RETIRED_STATES: ReadonlySet<string> = new Set(['DEMOTED', 'REJECTED', 'ARCHIVED', 'SUPERSEDED']);

/** cites_retired: a checked row whose derives_from names a row now DEMOTED, REJECTED, ARCHIVED or SUPERSEDED. */
export function citesRetired(house: { readonly store: Store }, rows: readonly CheckedRow[]): Finding {
  const parentsOf = new Map(rows.map((r) => [r.artifact_id, JSON.parse(r.derives_from) as string[]]));
  const parents = [...new Set([...parentsOf.values()].flat())];
  if (parents.length === 0) return { flagged: [] };
  const retired = new Set(
    house.store.artifacts
      .statesOf(parents)
      .filter((p) => RETIRED_STATES.has(p.state))
      .map((p) => p.artifact_id),
  );
  return { flagged: rows.filter((r) => parentsOf.get(r.artifact_id)!.some((p) => retired.has(p))).map((r) => r.artifact_id) };
}
