/**
 * Piscina worker entry for the organization gate's reading copies: a member's content (bytes
 * the org has stored but never parsed) is decoded and scanned here, off the thread that
 * serves the doors, with the gate's own scanner, and masked as a person's copy at the gate
 * is masked (secrets and personal data; an injection stays readable, as text).
 */
import type { Finding } from '../scan/finding.js';
import { forPeople } from '../scan/persons-copy-mask.js';
import { scanText } from '../scan/scan-text.js';
import { lowerThisThread } from '../thread-priority.js';

lowerThisThread();

/** A person's copy of one submission's content: text with what must not travel masked, and every finding by its place. */
export interface PersonsCopy {
  text: string;
  /** Every finding by its place, as a row's findings are served at the gate (no excerpt). */
  findings: Omit<Finding, 'excerpt'>[];
  /** The scanner that read it (its version label), as a row's scan names it at the gate. */
  scanner: string;
}

export interface CopyTask {
  /** Each content as the submission carries it (canonical base64; null when the member sent no bytes) with its kind. */
  items: { base64: string | null; contentType: string }[];
}

// Fatal: bytes that are not UTF-8 are not text (an archive, an image) and get no copy.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function copyOf(item: CopyTask['items'][number]): Promise<PersonsCopy | null> {
  if (item.base64 === null) return null;
  let text: string;
  try {
    text = decoder.decode(Buffer.from(item.base64, 'base64'));
  } catch {
    return null;
  }
  const scanned = await scanText(text, { contentType: item.contentType });
  return {
    text: forPeople(text, scanned.findings),
    findings: scanned.findings.map(({ kind, severity, detail, start, end }) => ({ kind, severity, detail, start, end })),
    scanner: scanned.scanner,
  };
}

export default async function copyBatch(task: CopyTask): Promise<Array<PersonsCopy | null>> {
  const copies: Array<PersonsCopy | null> = [];
  for (const item of task.items) copies.push(await copyOf(item));
  return copies;
}
