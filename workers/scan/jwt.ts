/**
 * JSON Web Tokens: bearer credentials that secretlint's preset has no rule for. The shape
 * alone (three base64url segments) also fits ordinary ids, so the header must decode to a
 * JSON object naming its algorithm and the payload to a JSON object.
 */
import type { Finding } from './finding.js';
import { maskExcerpt } from './mask.js';
import { isStandIn } from './placeholder.js';

const JWT_SHAPE = /(?<![A-Za-z0-9_-])(ey[A-Za-z0-9_-]{10,})\.(ey[A-Za-z0-9_-]{10,})\.([A-Za-z0-9_-]{16,})(?![A-Za-z0-9_-])/g;

function decodesToObject(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function findJwts(text: string): Finding[] {
  if (!text.includes('ey')) return [];
  const findings: Finding[] = [];
  for (const match of text.matchAll(JWT_SHAPE)) {
    const token = match[0];
    const header = decodesToObject(match[1]!);
    if (!header || typeof header.alg !== 'string' || header.alg.toLowerCase() === 'none') continue;
    if (!decodesToObject(match[2]!) || isStandIn(token)) continue;
    findings.push({
      kind: 'secret.jwt',
      severity: 'high',
      detail: 'A signed JSON Web Token, usable as a bearer credential until it expires.',
      start: match.index,
      end: match.index + token.length,
      excerpt: maskExcerpt(token),
    });
  }
  return findings;
}
