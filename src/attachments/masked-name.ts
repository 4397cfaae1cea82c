import { maskExcerpt } from '../../workers/scan/mask.js';

const SAFE_EXTENSION = /\.[A-Za-z0-9]{1,10}$/;

/**
 * A file name as served: a name can carry a person's name, a ticket or a secret, so only
 * the start of its stem shows (the scanner's excerpt mask) and a plain extension stays,
 * since it says what kind of file a reader is opening. No name is served as null.
 */
export function maskedName(name: string | null): string | null {
  if (name === null) return null;
  const extension = SAFE_EXTENSION.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - extension.length);
  return `${maskExcerpt(stem)}${extension}`;
}
