import type { PersonsCopy } from '../../workers/org-copy/pool-entry.js';
import { maskedForPeople } from '../../workers/scan/persons-copy-mask.js';
import { withHiddenShown } from '../domain/hidden-characters.js';
import { findingLines, type ShownFinding } from './shown-findings.js';
import { shownIdentity } from '../domain/shown-identity.js';
import { submissionNames } from '../forms/submission-people.js';

/** One submission as gv.org_inbox, gv.org_take and gv.org_submission answer it (asked with `decoded: true`). */
export interface InboxItem {
  member_deployment_id: string;
  artifact_id: string;
  submission_id: string;
  trust_class: string;
  state: string;
  attempts: number;
  received_at: number;
  held_by: string | null;
  held_until: number | null;
  /** Decisions waiting for more people (src/org/org-decision.ts), each with how many more. */
  waiting: Array<{ decision: string; by: string; ts: number; still_needed: number }>;
  /** How the person's own decision would count (src/org/person-match.ts), with the sentence to show before they decide. */
  standing: { counts: 'alone' | 'not' | 'with_others'; says: string | null };
  content: 'included' | 'withheld' | 'erased';
  submission: {
    envelope?: { content_type?: string; kind?: string; source_uri?: string; size_bytes?: number; space?: string };
    content?: { encoding?: string; bytes?: string | null };
    approval?: { status?: string; signers?: Array<{ identity?: string; class?: string; decision?: string; counts?: boolean }> };
    /** The emails the member states for the people it names (src/forms/submission-people.ts). */
    people?: unknown;
  };
  /** The organization's person's copy of the content (decoded, scanned and masked there); null when the bytes are not text. */
  copy: PersonsCopy | null;
}

export interface ShownSubmission {
  text: string;
  findings: ShownFinding[];
}

/**
 * What a person at the organization reads: the organization's own person's copy of the
 * submitted bytes (workers/org-copy: decoded, scanned by the gate's scanner and masked as the
 * gate masks a person's copy, persons-copy.ts: secrets and personal data hidden, everything
 * else, an injection included, shown as written so it can be judged), the copy the
 * organization's console shows, with hidden characters drawn and every finding listed with
 * where it is. Bytes that are not UTF-8 text have no copy, and are only counted.
 */
export function showSubmission(item: InboxItem, you: string): ShownSubmission {
  const env = item.submission.envelope ?? {};
  const size = env.size_bytes ?? 0;
  const held = item.held_by === null ? 'held by nobody' : `held by ${item.held_by === you ? 'you' : item.held_by} until ${new Date(item.held_until!).toISOString()}`;
  const lines = [
    `${item.artifact_id} from member ${item.member_deployment_id}`,
    `  ${item.trust_class} ${env.kind ?? '?'} (${env.content_type ?? '?'}), ${size} bytes, space ${env.space ?? '?'}, source ${env.source_uri ?? '?'}`,
    `  submission ${item.submission_id}, attempt ${item.attempts}, ${item.state}, ${held}`,
  ];
  for (const w of item.waiting) {
    lines.push(`  ${w.by === you ? 'you' : w.by} decided ${w.decision} on ${new Date(w.ts).toISOString()}: it waits for ${w.still_needed === 1 ? 'one more person' : `${w.still_needed} more people`} to ${w.decision} too`);
  }
  if (item.standing.says !== null) lines.push(`  ${item.standing.counts === 'not' ? 'NOT YOURS TO DECIDE' : 'NOT YOURS ALONE'}: ${item.standing.says}`);
  const approval = item.submission.approval;
  if (approval !== undefined) {
    // The member's people by the email the submission states, the identity beside it; the organization holds no names of its own for them.
    const names = submissionNames(item.submission.people);
    const signers = (approval.signers ?? []).map((s) => {
      const id = s.identity ?? '?';
      const shown = shownIdentity(id, names.get(id));
      return `${s.decision ?? '?'} by ${shown} (${s.class ?? '?'}${s.counts ? '' : ', not counted'}${shown === id ? '' : `; ${id}`})`;
    });
    lines.push(`  at the member: ${approval.status ?? '?'}${signers.length === 0 ? '' : `: ${signers.join('; ')}`}`);
  }
  const copy = item.copy;
  if (item.content === 'erased') {
    lines.push('  (its member erased the content: the organization holds none of it)');
    return { text: `${lines.join('\n')}\n`, findings: [] };
  }
  if (copy === null) {
    lines.push(`  (not UTF-8 text: ${size} bytes not shown)`);
    return { text: `${lines.join('\n')}\n`, findings: [] };
  }
  const shown = withHiddenShown(copy.text);
  lines.push('---', shown.endsWith('\n') ? shown.slice(0, -1) : shown, '---');
  const found = copy.findings.length === 0 ? '  the scanner found nothing\n' : `  the scanner found ${copy.findings.length}:\n${findingLines(copy.findings, (f) => (maskedForPeople(f.kind) ? ' (masked)' : ''))}`;
  return { text: `${lines.join('\n')}\n${found}`, findings: copy.findings };
}
