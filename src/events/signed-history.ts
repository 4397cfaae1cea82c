import { eventFromRow, type JournalRow } from '../forms/event.js';
import { verifyWithDeploymentId } from '../forms/ed25519.js';
import type { Deployment } from '../journal/deployment.js';
import type { Store } from '../store/store.js';
import { isServedType, servedEvent } from './served-event.js';

/** A row's journal rows of served types, in order; internal events about a row (who was served its attachments) stay inside. */
export function servedRowsOf(house: { readonly store: Store }, artifactId: string): JournalRow[] {
  const rows = house.store.journalReads.eventsOf(artifactId);
  // Internal events (a reviewer run, an assessment's words and score) stay inside the gate.
  return rows.filter((row) => isServedType(row.type));
}

/** A served event with its place in the chain and its signature, checked here against the key that signed at its seq. */
export function signedEntry(house: { readonly deployment: Deployment }, row: JournalRow, event = eventFromRow(row)) {
  return {
    ...servedEvent(event),
    seq: row.seq,
    prev: row.prev,
    sig: row.sig,
    verified: verifyWithDeploymentId(house.deployment.signingKeys.keyAt(row.seq), row.body, row.sig),
  };
}

/** Each served event of a row with its signature, checked here against the deployment key. */
export function signedHistory(house: { readonly store: Store; readonly deployment: Deployment }, artifactId: string) {
  return servedRowsOf(house, artifactId).map((row) => signedEntry(house, row));
}
