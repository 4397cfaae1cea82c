/**
 * The fields a row is served with (its source, work area, producer, an attachment's source),
 * scanned each as a text of its own: a field is not part of the body, so its findings must not
 * shift the body's offsets nor join it in one classifier window, and a finding in it says
 * which field it is in (finding-location.ts).
 */
import type { Finding } from './finding.js';
import { SEVERITY_RANK } from './finding.js';
import type { ScanField } from './finding-location.js';
import { maskExcerpt } from './mask.js';
import { scanText, type ScanOptions } from './scan-text.js';

/**
 * A field as a reader reads it: percent-escapes decoded and the separators of URLs and names
 * (`/ - _ . + = & ? # ~ : @`) read as spaces, so `ignore-all-previous-instructions` and
 * `?q=ignore+all+previous%20instructions` are words the phrase rules know. Unit for unit: a
 * decoded escape is padded with spaces to the length it had, so offsets into this form are
 * offsets into the field.
 */
export function readableField(text: string): string {
  const decoded = text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    let plain: string;
    try {
      plain = decodeURIComponent(run);
    } catch {
      return run;
    }
    return plain.length <= run.length ? plain + ' '.repeat(run.length - plain.length) : run;
  });
  return decoded.replace(/[/\-_.+=&?#~:@]/g, ' ');
}

/**
 * The attack classifier reads prose, and on a URL or a name of a few words its score says
 * nothing: on this build it scored `http://docs.example/` 0.99, `https://example.org/relay`,
 * `Private Example Page` and `research/prompt-injection` above its threshold. Its reading of a
 * field is not kept (kept, even low, it would withhold the built-in reviewer's approval from
 * every row so sourced); the phrase rules, over the field's words, and the secret, executable,
 * encoding, Unicode and personal-data detectors hold as in a body (docs/scanner.md).
 */
export const UNREAD_IN_FIELDS: ReadonlySet<string> = new Set(['injection.classifier']);

/**
 * Fields repeat: one agent writes thousands of rows into one work area under one producer
 * name. A field's findings are a pure function of its text and the options, so a worker keeps
 * the last few hundred it scanned (the oldest read dropped first).
 */
const KEPT = 512;
const kept = new Map<string, Finding[]>();

function keyOf(text: string, options: ScanOptions): string {
  return `${options.contentType ?? ''}\u0000${options.personalDataSeverity ?? ''}\u0000${text}`;
}

/** The field as written (secrets, commands) and as read (words), one list: a finding both make once, the worse kept. */
async function fieldFindings(text: string, options: ScanOptions): Promise<Finding[]> {
  const readable = readableField(text);
  const forms = readable === text ? [text] : [text, readable];
  const byPlace = new Map<string, Finding>();
  for (const form of forms) {
    for (const found of (await scanText(form, options)).findings) {
      if (UNREAD_IN_FIELDS.has(found.kind)) continue;
      const key = `${found.kind}|${found.start}|${found.end}`;
      const twin = byPlace.get(key);
      if (twin === undefined || SEVERITY_RANK[found.severity] > SEVERITY_RANK[twin.severity]) {
        byPlace.set(key, { ...found, excerpt: maskExcerpt(text.slice(found.start, found.end)) });
      }
    }
  }
  return [...byPlace.values()].sort((a, b) => a.start - b.start || a.end - b.end || a.kind.localeCompare(b.kind));
}

async function findingsOf(text: string, options: ScanOptions): Promise<Finding[]> {
  // A bench's own attack model is not the one the cache was filled with.
  if (options.attackModel !== undefined) return fieldFindings(text, options);
  const key = keyOf(text, options);
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const findings = await fieldFindings(text, options);
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, findings);
  return findings;
}

/** Every field's findings, each carrying its field's location; an empty field holds none. */
export async function scanFields(fields: readonly ScanField[], options: ScanOptions): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const { location, text } of fields) {
    if (text.trim() === '') continue;
    for (const f of await findingsOf(text, options)) out.push({ ...f, location });
  }
  return out;
}
