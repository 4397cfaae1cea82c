/**
 * The result of a scan stopped at its deadline (`scan.deadline_ms`, docs/scanner.md,
 * "Bounded scan time"). Nothing in the claim was checked, so nothing in it may pass for
 * checked: one high finding over the whole text holds the row in L1B_FLAGGED for a person,
 * and the masked body masks every character, since a grader must not read what may hold a
 * secret or an attack. Built on the gate's thread from the claim's bytes, never decoding them.
 */
import type { Finding, ScanResult } from './finding.js';

export const SCAN_TIMEOUT = 'scan_timeout';

const MASK_CHAR = '█';

/** UTF-16 units and code points of valid UTF-8 (the gate checked it), counted without decoding. */
function lengths(bytes: Uint8Array): { units: number; codePoints: number } {
  let codePoints = 0;
  let astral = 0;
  for (const byte of bytes) {
    // Every byte but a continuation byte starts a code point; a four-byte one is two UTF-16 units.
    if ((byte & 0xc0) !== 0x80) codePoints++;
    if (byte >= 0xf0) astral++;
  }
  return { units: codePoints + astral, codePoints };
}

export function timedOutScan(bytes: Uint8Array, deadlineMs: number, scanner: string): ScanResult {
  const { units, codePoints } = lengths(bytes);
  const finding: Finding = {
    kind: SCAN_TIMEOUT,
    severity: 'high',
    detail: `The scan ran past its deadline of ${deadlineMs} ms and was stopped: nothing in the claim was checked, so a person reads it.`,
    start: 0,
    end: units,
    // No character of an unchecked text is shown, not even the four a masked excerpt keeps.
    excerpt: `…(${codePoints} more)`,
  };
  return { findings: [finding], flagged: true, masked: units === 0 ? null : MASK_CHAR.repeat(units), scanner };
}
