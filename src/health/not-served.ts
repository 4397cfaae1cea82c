import { ChainFilter, HideFilter } from '../recall/served-filter.js';
import type { CheckedRow } from './checked-rows.js';
import type { Finding } from './check-finding.js';
import type { Store } from '../store/store.js';

/**
 * not_served: a checked row that recall, asked plainly, would give no reader: hidden for
 * audience all (a lowered total hide still serves it, lower), or not the served member of
 * its supersession chain (SUPERSEDED with no pin on it; any other member once a pin stands
 * in the chain). The same filters recall uses decide, so the two cannot disagree.
 */
export function notServed(house: { readonly store: Store }, rows: readonly CheckedRow[]): Finding {
  const hides = new HideFilter(house.store.relations, undefined);
  const chains = new ChainFilter(house.store.relations, false);
  return {
    flagged: rows.filter((r) => hides.verdict(r.artifact_id) === 'hidden' || !chains.served(r)).map((r) => r.artifact_id),
  };
}
