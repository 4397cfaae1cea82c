const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Stored bytes as text, or null when they are not UTF-8 text without NUL: an archive or a
 * bundle's image is stored like a claim but is never indexed or served as words.
 */
export function bodyText(bytes: Uint8Array): string | null {
  try {
    const text = strictUtf8.decode(bytes);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}
