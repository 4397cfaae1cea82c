import type { PersonsCopy } from '../../workers/org-copy/pool-entry.js';
import { maskedForPeople } from '../review/persons-copy.js';
import { withHiddenShown } from '../domain/hidden-characters.js';
import { findingLines, type ShownFinding } from './shown-findings.js';

/** One item of gv.org_inbox asked with `decoded: true`, as the organization answers it. */
export interface InboxItem {
  member_deployment_id: string;
  artifact_id: string;
  submission_id: string;
  trust_class: string;
  attempts: number;
  received_at: number;
  held_until: number;
  submission: {
    envelope?: { content_type?: string; kind?: string; source_uri?: string; size_bytes?: number; space?: string };
    content?: { encoding?: string; bytes?: string | null };
    approval?: { status?: string; signers?: Array<{ identity?: string; class?: string; decision?: string; counts?: boolean }> };
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
export function showSubmission(item: InboxItem): ShownSubmission {
  const env = item.submission.envelope ?? {};
  const size = Buffer.byteLength(item.submission.content?.bytes ?? '', 'base64');
  const lines = [
    `${item.artifact_id} from member ${item.member_deployment_id}`,
    `  ${item.trust_class} ${env.kind ?? '?'} (${env.content_type ?? '?'}), ${size} bytes, space ${env.space ?? '?'}, source ${env.source_uri ?? '?'}`,
    `  submission ${item.submission_id}, attempt ${item.attempts}, held for you until ${new Date(item.held_until).toISOString()}`,
  ];
  const approval = item.submission.approval;
  if (approval !== undefined) {
    const signers = (approval.signers ?? []).map((s) => `${s.decision ?? '?'} by ${s.identity ?? '?'} (${s.class ?? '?'}${s.counts ? '' : ', not counted'})`);
    lines.push(`  at the member: ${approval.status ?? '?'}${signers.length === 0 ? '' : `: ${signers.join('; ')}`}`);
  }
  const copy = item.copy;
  if (copy === null) {
    lines.push(`  (not UTF-8 text: ${size} bytes not shown)`);
    return { text: `${lines.join('\n')}\n`, findings: [] };
  }
  const shown = withHiddenShown(copy.text);
  lines.push('---', shown.endsWith('\n') ? shown.slice(0, -1) : shown, '---');
  const found = copy.findings.length === 0 ? '  the scanner found nothing\n' : `  the scanner found ${copy.findings.length}:\n${findingLines(copy.findings, (f) => (maskedForPeople(f.kind) ? ' (masked)' : ''))}`;
  return { text: `${lines.join('\n')}\n${found}`, findings: copy.findings };
}
