import { maskSpans } from '../../workers/scan/mask.js';
import { scanText } from '../../workers/scan/scan-text.js';
import type { Finding } from '../../workers/scan/finding.js';
import { maskedForPeople } from '../review/persons-copy.js';
import { withHiddenShown } from '../domain/hidden-characters.js';
import { findingLines } from './shown-findings.js';

/** One item of gv.org_inbox, as the organization answers it. */
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
}

export interface ShownSubmission {
  text: string;
  findings: Finding[];
}

/**
 * What a person at the organization reads: the submitted bytes as text, scanned here by the
 * gate's own scanner and masked as the gate masks a person's copy (persons-copy.ts: secrets
 * and personal data hidden, everything else, an injection included, shown as written so it
 * can be judged), hidden characters drawn, and every finding listed with where it is. Bytes
 * that are not UTF-8 text are not shown, only counted.
 */
export async function showSubmission(item: InboxItem): Promise<ShownSubmission> {
  const env = item.submission.envelope ?? {};
  const bytes = Buffer.from(item.submission.content?.bytes ?? '', 'base64');
  const lines = [
    `${item.artifact_id} from member ${item.member_deployment_id}`,
    `  ${item.trust_class} ${env.kind ?? '?'} (${env.content_type ?? '?'}), ${bytes.length} bytes, space ${env.space ?? '?'}, source ${env.source_uri ?? '?'}`,
    `  submission ${item.submission_id}, attempt ${item.attempts}, held for you until ${new Date(item.held_until).toISOString()}`,
  ];
  const approval = item.submission.approval;
  if (approval !== undefined) {
    const signers = (approval.signers ?? []).map((s) => `${s.decision ?? '?'} by ${s.identity ?? '?'} (${s.class ?? '?'}${s.counts ? '' : ', not counted'})`);
    lines.push(`  at the member: ${approval.status ?? '?'}${signers.length === 0 ? '' : `: ${signers.join('; ')}`}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    lines.push(`  (not UTF-8 text: ${bytes.length} bytes not shown)`);
    return { text: `${lines.join('\n')}\n`, findings: [] };
  }
  const scanned = await scanText(text, env.kind === undefined ? {} : { contentType: env.kind });
  const copy = maskSpans(text, scanned.findings.filter((f) => maskedForPeople(f.kind)));
  const shown = withHiddenShown(copy);
  lines.push('---', shown.endsWith('\n') ? shown.slice(0, -1) : shown, '---');
  const found = scanned.findings.length === 0 ? '  the scanner found nothing\n' : `  the scanner found ${scanned.findings.length}:\n${findingLines(scanned.findings, (f) => (maskedForPeople(f.kind) ? ' (masked)' : ''))}`;
  return { text: `${lines.join('\n')}\n${found}`, findings: scanned.findings };
}
