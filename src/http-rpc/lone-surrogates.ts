const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Whether a parsed request holds a string with a lone UTF-16 surrogate. Valid UTF-8 bytes can
 * still spell one as an escape (`"\ud800"`); such a string has no UTF-8 form, so storing it
 * would write U+FFFD in place of what was sent, exactly what invalid bytes are refused for.
 * The parsed value is walked only when the text escapes a surrogate at all (a client that
 * escapes every non-ASCII character writes emoji as escaped pairs, which are fine); the walk
 * recurses, so it runs after the depth bound.
 */
export function hasLoneSurrogate(text: string, message: unknown): boolean {
  // includes() is a native search; the regex alone cost more than the structure loop on 1 KB.
  if (!text.includes('\\u') || !SURROGATE_ESCAPE.test(text)) return false;
  return illFormed(message);
}

function illFormed(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed();
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(illFormed);
  for (const [key, member] of Object.entries(value)) if (!key.isWellFormed() || illFormed(member)) return true;
  return false;
}
