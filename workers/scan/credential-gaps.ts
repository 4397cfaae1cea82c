/**
 * Credentials the format rules pass over on purpose, which a reviewer should still see:
 *
 * - the published documentation samples (AWS's example key pair, jwt.io's token) that every
 *   other detector drops as stand-ins (placeholder.ts): a low `secret.example-credential`,
 *   so the row is not held but its reviewer knows a credential-shaped value is there;
 * - a `ghp_` token of the wrong length: a GitHub classic personal access token is `ghp_`
 *   and 36 characters, and secretlint's rule matches that length only, so a token cut short
 *   in a paste or with characters added passed with no finding. Medium: it is held, since a
 *   truncated token is often the live one with its end lost, and a person decides.
 */
import type { Finding } from './finding.js';
import { maskExcerpt } from './mask.js';
import { isStandIn, PUBLISHED_SAMPLES } from './placeholder.js';

// A sample counts only as a whole token, not inside a longer one.
const TOKEN_CHAR = /[A-Za-z0-9/+=_.-]/;
const GITHUB_CLASSIC = /(?<!\p{L})ghp_([A-Za-z0-9_]+)(?![A-Za-z0-9_])/gu;
const GITHUB_CLASSIC_BODY = 36;
// Shorter bodies are words and prefixes in prose (`ghp_abc`, `ghp_token`), not tokens.
const GITHUB_MIN_BODY = 12;

function findExampleCredentials(text: string): Finding[] {
  if (!text.includes('EXAMPLE') && !text.includes('eyJ')) return [];
  const findings: Finding[] = [];
  for (const sample of PUBLISHED_SAMPLES) {
    for (let at = text.indexOf(sample); at !== -1; at = text.indexOf(sample, at + sample.length)) {
      const before = at > 0 ? text[at - 1]! : '';
      const after = text[at + sample.length] ?? '';
      if (TOKEN_CHAR.test(before) || TOKEN_CHAR.test(after)) continue;
      findings.push({
        kind: 'secret.example-credential',
        severity: 'low',
        detail: 'A published example credential (a documentation sample, not a live key).',
        start: at,
        end: at + sample.length,
        excerpt: maskExcerpt(sample),
      });
    }
  }
  return findings;
}

function findMalformedGithubTokens(text: string): Finding[] {
  if (!text.includes('ghp_')) return [];
  const findings: Finding[] = [];
  for (const match of text.matchAll(GITHUB_CLASSIC)) {
    const body = match[1]!;
    if (body.length === GITHUB_CLASSIC_BODY || body.length < GITHUB_MIN_BODY) continue;
    // Random base62 mixes digits and letters; a body of one class is a word or a stand-in.
    if (!/\d/.test(body) || !/[A-Za-z]/.test(body) || isStandIn(match[0])) continue;
    findings.push({
      kind: 'secret.github-token-malformed',
      severity: 'medium',
      detail: `A GitHub token prefix with a body of ${body.length} characters instead of ${GITHUB_CLASSIC_BODY}: a truncated or altered token.`,
      start: match.index,
      end: match.index + match[0].length,
      excerpt: maskExcerpt(match[0]),
    });
  }
  return findings;
}

export function findCredentialGaps(text: string): Finding[] {
  return [...findExampleCredentials(text), ...findMalformedGithubTokens(text)];
}
