import { maskSpans } from './mask.js';

/**
 * A person's copy of a scanned text (docs/review.md): the scanner's
 * masked body hides every finding's span, so that no program reading it meets the injection
 * it was written to carry; a person must read that instruction to judge it, so their copy
 * masks only what must not travel to anyone, secrets and personal data. Here, beside the
 * scanner's own masking, because both gates make such copies: the member gate of a held
 * row (src/review/persons-copy.ts), the organization's copy worker of a submission
 * (workers/org-copy/).
 */

/** What a person's copy still masks. */
export const maskedForPeople = (kind: string): boolean => kind.startsWith('secret.') || kind.startsWith('personal.');

/** `text` as a person reads it, given its findings: the spans of those maskedForPeople masked. */
export const forPeople = (text: string, findings: ReadonlyArray<{ kind: string; start: number; end: number }>): string =>
  maskSpans(text, findings.filter((f) => maskedForPeople(f.kind)));
