/**
 * Values that only stand in for a secret: documentation examples and template slots.
 * Detectors drop them, because a claim explaining where a key goes is not a leaked key.
 */

// Words a real token body would only hold by a vanishing chance.
const STAND_IN_WORD = /example|placeholder|redacted|changeme|change_me|replace_?me|your|dummy|xxxx|\*{3}|\.{3}|…/i;
// Credentials in URLs made of the words themselves: http://user:pass@proxy.
const STAND_IN_LOGIN = /:\/\/(?:user(?:name)?|me|foo|login|admin|root):(?:pass(?:word)?|secret|pwd|changeme|foo|bar)@/i;
// Template and reference syntax: the value names where the secret comes from.
const TEMPLATE_SLOT = /[<>]|\{\{|\$\{|\$[A-Z_]{2,}|%[A-Z_]{2,}%|^env:|process\.env|os\.environ/;
const LONG_REPEAT = /(.)\1{7,}/;
// Typed rather than generated: five or more consecutive letters or digits in order
// ("abcde", "45678"). Even for a hex secret of 64 characters the chance is about 0.1%.
const SEQUENCE_LENGTH = 5;

const isDigitOrLetter = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 122);

function hasSequence(value: string): boolean {
  const lower = value.toLowerCase();
  let run = 1;
  for (let i = 1; i < lower.length; i++) {
    const prev = lower.charCodeAt(i - 1);
    const code = lower.charCodeAt(i);
    run = code === prev + 1 && isDigitOrLetter(code) && isDigitOrLetter(prev) ? run + 1 : 1;
    if (run >= SEQUENCE_LENGTH) return true;
  }
  return false;
}

/** Well-known public documentation samples (AWS, jwt.io) that scanners everywhere ignore. */
export const PUBLISHED_SAMPLES: ReadonlySet<string> = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

export function isStandIn(value: string): boolean {
  return (
    PUBLISHED_SAMPLES.has(value) ||
    STAND_IN_WORD.test(value) ||
    STAND_IN_LOGIN.test(value) ||
    TEMPLATE_SLOT.test(value) ||
    LONG_REPEAT.test(value) ||
    hasSequence(value)
  );
}
