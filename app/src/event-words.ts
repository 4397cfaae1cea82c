// What an event did, in words, beside its journal type. The type stays what the journal
// signed (the specification's events table); the words say what happened to the row: a
// `ratify` entering NEEDS_EVIDENCE is a request for evidence, never a ratification
// (docs/review.md, "Sent back for evidence").

/** A signature's decision (manual-sign, disposition), as done. */
const DECIDED: Readonly<Record<string, string>> = {
  approve: 'approved',
  reject: 'rejected',
  archive: 'archived',
};

/** An event as gv.events or gv.why serves it: its type, the state it entered, a signature's decision. */
type Described = { type: string; enters?: unknown; decision?: unknown };

export function whatHappened(e: Described): string {
  switch (e.type) {
    case 'ratify':
      return e.enters === 'NEEDS_EVIDENCE' ? 'asked for evidence' : 'ratified: waits for a countersign';
    case 'manual-sign':
    case 'disposition': {
      const decision = typeof e.decision === 'string' ? e.decision : '';
      return DECIDED[decision] ?? (decision === '' ? 'signed' : `signed ${decision}`);
    }
    case 'promote':
      return 'promoted';
    case 'reject':
      return 'rejected';
    case 'demote':
      return 'demoted';
    case 'reopen':
      return 'reopened';
    case 'cancel':
      return 'cancelled';
    case 'countersign':
      return 'countersigned by the organization';
    case 'evidence-added':
      return 'evidence added';
    default:
      return e.type;
  }
}
