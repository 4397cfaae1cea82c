/**
 * Secrets of no known format: a value bound to a name that says key, secret, token or
 * password, which looks random rather than like a word, a path or a reference. secretlint's
 * preset has no generic rule, and without one an in-house token or a database password in
 * a `.env` line would pass.
 */
import type { Finding, Severity } from './finding.js';
import { maskExcerpt } from './mask.js';
import { cueGate } from './literal-cues.js';
import { isStandIn } from './placeholder.js';

// A name, optionally quoted (JSON, YAML, dicts) and not a segment of a path or ARN, then
// `=`, `:`, `:=` or `=>`, then a value, quoted or bare. Bare values stop where code or
// prose punctuation starts.
const ASSIGNMENT =
  /(?<![A-Za-z0-9_.:/-])(["'`]?)([A-Za-z_-][A-Za-z0-9_.-]{0,63})\1\s*(?::=|=>|=|:)[ \t]*(?:(["'`])([^"'`\s]{8,512})\3|([A-Za-z0-9_\-+/=.~!@#$%^*]{8,512}))/g;
// `Authorization: Bearer …` and similar header values carry a token after a scheme word.
const BEARER = /\b(?:Bearer|Token)[ \t]+([A-Za-z0-9._~+/-]{20,512}=*)(?![A-Za-z0-9._~+/=-])/g;

const SECRET_NAME =
  /(?:api|access|auth|private|secret|signing|encryption|master|session|client|service|app|webhook|hmac|license)[_.-]?key|apikey|secret|token|credential|bearer/i;
const PASSWORD_NAME = /passw(?:or)?d|passphrase/i;
// Names about a secret rather than holding one: where it lives, how long it lasts, public halves.
export const NOT_A_SECRET_NAME = new RegExp(
  [
    'public|pub[_.-]?key',
    // Tokens that only page, order or deduplicate requests.
    '(?:next|page|paging|pagination|continuation|client|idempotency|request|sync|cursor|lock|change|update|export|import|resume|marker|csrf|xsrf|pre)[_.-]?token',
    '(?:^|[_.-])(?:id|ids|count|limit|max|min|len|length|size|type|types|url|uri|endpoint|file|path|dir|name|names|header|env|var|prefix|suffix|ttl|expiry|expires|expiration|timeout|hash|policy|format|version|kind|mode|field|arn|spec|expression|algorithm|verifier|status|state)$',
    '[a-z](?:Id|Ids|Count|Url|Uri|Path|File|Name|Header|Env|Type|Length|Ttl|Expiry|Timeout|Arn|Spec|Expression|Algorithm|Verifier|Status|State)$',
    'tokens$|tokeniz|^max[_.-]?tokens',
  ].join('|'),
  'i',
);
// Code references and locations, not values: process.env.X, config.auth.key, ./file, URLs.
const REFERENCE = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$|^\.{0,2}\/|:\/\/|^arn:|^\$|^(?:true|false|null|none|undefined)$/i;
// Letters only, in words (SYMMETRIC_DEFAULT, source_credentials, SomeEncryptedToken): an
// identifier or an enum. Random letters break into one- and two-letter "words".
const WORDS_ONLY = /^[A-Za-z_-]+$/;
const WORD_BREAK = /[_-]+|(?<=[a-z])(?=[A-Z])/;
// Passwords in examples are made of the word itself or of other giveaways.
const PASSWORD_STAND_IN = /pass(?:word|wd)?|login|secret|changeme|letmein|qwerty|admin|hunter2|12345|example|sample|test|dummy|default|enter/i;
// A bare value running into a call or an index is an expression: `token = getToken(…)`.
const EXPRESSION_CONTINUES = /^\s*[([]/;

const SECRET_MIN_LENGTH = 16;
const PASSWORD_MIN_LENGTH = 10;
// Bits per character. Random base64/hex of these lengths scores ~3.7-5; English words and
// identifiers of the same length score ~2.8-3.4.
const SECRET_MIN_ENTROPY = 3.5;
const PASSWORD_MIN_ENTROPY = 3.0;

const CUE = /key|secret|token|passw|passphrase|credential|bearer/i;
const CUE_GATE = cueGate(['key', 'secret', 'token', 'passw', 'passphrase', 'credential', 'bearer'], [CUE]);

export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const length = [...value].length;
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
}

function isIdentifier(value: string): boolean {
  if (!WORDS_ONLY.test(value)) return false;
  const words = value.split(WORD_BREAK).filter((w) => w.length > 0);
  return words.length > 0 && value.replace(/[_-]/g, '').length / words.length >= 4;
}

function looksRandom(value: string, minLength: number, minEntropy: number, minClasses: number): boolean {
  return (
    value.length >= minLength &&
    !isIdentifier(value) &&
    !REFERENCE.test(value) &&
    !isStandIn(value) &&
    characterClasses(value) >= minClasses &&
    shannonEntropy(value) >= minEntropy
  );
}

function finding(kind: string, severity: Severity, detail: string, start: number, value: string): Finding {
  return { kind, severity, detail, start, end: start + value.length, excerpt: maskExcerpt(value) };
}

export function findSecretAssignments(text: string): Finding[] {
  if (!CUE_GATE.mayOccurIn(text) || !CUE.test(text)) return [];
  const findings: Finding[] = [];
  for (const match of text.matchAll(ASSIGNMENT)) {
    const name = match[2]!;
    const value = match[4] ?? match[5]!;
    if (NOT_A_SECRET_NAME.test(name)) continue;
    const matchEnd = match.index + match[0].length;
    if (match[5] !== undefined && EXPRESSION_CONTINUES.test(text.slice(matchEnd, matchEnd + 2))) continue;
    const start = matchEnd - value.length - (match[4] !== undefined ? 1 : 0);
    if (PASSWORD_NAME.test(name)) {
      if (looksRandom(value, PASSWORD_MIN_LENGTH, PASSWORD_MIN_ENTROPY, 1) && !PASSWORD_STAND_IN.test(value)) {
        findings.push(finding('secret.password-assignment', 'medium', 'A password assigned in clear text.', start, value));
      }
    } else if (SECRET_NAME.test(name)) {
      if (looksRandom(value, SECRET_MIN_LENGTH, SECRET_MIN_ENTROPY, 2)) {
        findings.push(
          finding('secret.high-entropy-assignment', 'high', 'A random-looking value assigned to a key, secret or token name.', start, value),
        );
      }
    }
  }
  for (const match of text.matchAll(BEARER)) {
    const value = match[1]!;
    if (looksRandom(value, SECRET_MIN_LENGTH, SECRET_MIN_ENTROPY, 2)) {
      const start = match.index + match[0].length - value.length;
      findings.push(finding('secret.bearer-token', 'high', 'A bearer token in an authorization value.', start, value));
    }
  }
  return findings;
}
