import type { Store } from '../store/store.js';
import { NEEDS_EVIDENCE_DECISION } from '../domain/states.js';


/** One request for evidence on a row, and the evidence that answered it, if any. */
export interface EvidenceRequest {
  event_id: string;
  by: string | null;
  ts: number;
  /** What the reviewer asked for, in their words: written for the row's writer, so served to them. */
  asks: string;
  answered: { event_id: string; ts: number; attachments: Array<{ sha256: string; name: string | null }> } | null;
}

/**
 * A row's requests for evidence, oldest first, each with the evidence that answered it: a
 * `ratify` event entering NEEDS_EVIDENCE opens one and the writer's `evidence-added` closes
 * the newest open one. Read from the journal, where both are the only record.
 */
export function evidenceRequests(house: { readonly store: Store }, artifactId: string): EvidenceRequest[] {
  const requests: EvidenceRequest[] = [];
  for (const row of house.store.journalReads.evidenceEventsOf(artifactId)) {
    const data = (JSON.parse(row.body) as { data: Record<string, unknown> }).data;
    if (row.type === 'ratify' && data['decision'] === NEEDS_EVIDENCE_DECISION) {
      requests.push({ event_id: row.event_id, by: row.by, ts: row.ts, asks: typeof data['asks'] === 'string' ? data['asks'] : '', answered: null });
    } else if (row.type === 'evidence-added') {
      const open = requests.at(-1);
      if (open === undefined || open.answered !== null) continue;
      const attachments = Array.isArray(data['attachments']) ? (data['attachments'] as Array<{ sha256: string; name?: string }>) : [];
      open.answered = { event_id: row.event_id, ts: row.ts, attachments: attachments.map((a) => ({ sha256: a.sha256, name: a.name ?? null })) };
    }
  }
  return requests;
}

/** What a reviewer asks of the row's writer while the row waits in NEEDS_EVIDENCE, or null. */
export function openEvidenceRequest(house: { readonly store: Store }, row: { artifact_id: string; state: string }): EvidenceRequest | null {
  if (row.state !== 'NEEDS_EVIDENCE') return null;
  const newest = evidenceRequests(house, row.artifact_id).at(-1);
  return newest !== undefined && newest.answered === null ? newest : null;
}
