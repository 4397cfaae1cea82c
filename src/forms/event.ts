/** What is signed: the canonical JSON of this envelope (RFC 8785). */
export interface EventEnvelope {
  v: 1;
  seq: number;
  type: string;
  ts: number;
  prev: string | null;
  by: string | null;
  data: Record<string, unknown>;
}

/** A journal event as stored: the envelope, its id (sha256 of the canonical bytes) and signature. */
export interface JournalEvent extends EventEnvelope {
  event_id: string;
  sig: string;
}

export interface JournalRow {
  seq: number;
  event_id: string;
  prev: string | null;
  ts: number;
  type: string;
  by: string | null;
  artifact_id: string | null;
  space: string | null;
  workarea: string | null;
  body: string;
  sig: string;
}

export function eventFromRow(row: JournalRow): JournalEvent {
  const envelope = JSON.parse(row.body) as EventEnvelope;
  return { ...envelope, event_id: row.event_id, sig: row.sig };
}
