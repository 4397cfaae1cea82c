import { forPeople } from '../../workers/scan/persons-copy-mask.js';
import { isInBody } from '../../workers/scan/finding-location.js';
import type { ArtifactRow } from '../projections/artifact-reads.js';
import type { Store } from '../store/store.js';

/**
 * The copy of a held row a person reads to judge it. The scanner's masked body hides every
 * finding's span, so that no program reading it (a grader, an agent shown a preview) meets
 * the injection it was written to carry. A person must read that instruction to judge it:
 * their copy masks only what must not travel to anyone, secrets and personal data, and
 * shows the rest as written. Both are masked unit for unit from the same text, so a page of
 * one is the same offsets of the other, and a person's read counts against the masked body.
 */

/** A few recent copies a store: a person reads a long body page by page, and each page would copy it whole. */
const COPIES_KEPT = 8;
const copies = new WeakMap<Store, Map<string, string>>();

/**
 * The person's copy of `row`'s body, or null when the row has no masked body of text (then
 * the scanner hid nothing and the masked body is the content). Keyed by the masked body's
 * hash: a new scan's findings make a new copy.
 */
export function personsCopy(house: { readonly store: Store }, row: ArtifactRow): string | null {
  if (row.masked_hash === null || row.erased_seq !== null) return null;
  let kept = copies.get(house.store);
  if (kept === undefined) copies.set(house.store, (kept = new Map()));
  const key = `${row.artifact_id} ${row.masked_hash}`;
  const hit = kept.get(key);
  if (hit !== undefined) return hit;
  const text = house.store.artifacts.text(row.content_hash);
  if (text === null) return null;
  // Only the body's findings have offsets into the body; a field's or an attachment's count elsewhere.
  const copy = forPeople(text, house.store.artifacts.findings(row.artifact_id).filter(isInBody));
  if (kept.size >= COPIES_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, copy);
  return copy;
}
