/**
 * The fields a row is served with (its source, work area, producer, an attachment's source),
 * scanned each as a text of its own: a field is not part of the body, so its findings must not
 * shift the body's offsets nor join it in one classifier window, and a finding in it says
 * which field it is in (finding-location.ts).
 */
import type { Finding } from './finding.js';
import type { ScanField } from './finding-location.js';
import { scanText, type ScanOptions } from './scan-text.js';

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

async function findingsOf(text: string, options: ScanOptions): Promise<Finding[]> {
  // A bench's own attack model is not the one the cache was filled with.
  if (options.attackModel !== undefined) return (await scanText(text, options)).findings;
  const key = keyOf(text, options);
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const { findings } = await scanText(text, options);
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
