/**
 * A text that contains none of these strings cannot match any rule of secretlint's
 * recommended preset 12.0.0, so secretlint need not run on it. Each entry is a literal that
 * every match of that rule contains, read from the rule's source in
 * node_modules/@secretlint/secretlint-rule-preset-recommend/module/index.js; the union is
 * matched case-insensitively, so it can only let more texts through than the rules would
 * match, never fewer. Running secretlint is most of the cost of a clean 1 KB scan.
 *
 * An entry that is a list names strings that every match holds all of: a credential in a URL
 * holds both `://` and `@`. `://` alone sent every row whose source is a URI to secretlint,
 * about 0.13 ms of a scan thread a claim when each claim names a new one
 * (bench/results/ingest-issue44-ab.json).
 *
 * Pinned to the preset version: test/scanner/secretlint-anchors.test.ts fails when the
 * version or the rule list changes, so an upgrade re-reads the rules before it ships.
 */
export const ANCHORED_PRESET_VERSION = '12.0.0';

/** A string every match of a rule holds, or strings it holds all of. */
export type Anchor = string | readonly string[];

export const RULE_ANCHORS: Readonly<Record<string, readonly Anchor[]>> = {
  // Access key ids by prefix; the secret key and account id patterns need the word.
  '@secretlint/secretlint-rule-aws': ['A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA', 'secret', 'account'],
  // Runs only for `.json` and `.p12` sources; claims are linted as `.txt`.
  '@secretlint/secretlint-rule-gcp': [],
  '@secretlint/secretlint-rule-privatekey': ['-----BEGIN'],
  '@secretlint/secretlint-rule-npm': ['npm_', 'x-oauth-basic', '_authToken='],
  // (https?|ftp|ftps)://user:password@host
  '@secretlint/secretlint-rule-basicauth': [['://', '@']],
  // Tokens by prefix; incoming webhooks are https://hooks.slack.com/services/T…/B…/…
  '@secretlint/secretlint-rule-slack': ['xoxb-', 'xoxp-', 'xapp-', 'xoxa-', 'xoxo-', 'xoxr-', 'hooks.slack.com'],
  '@secretlint/secretlint-rule-sendgrid': ['SG.'],
  '@secretlint/secretlint-rule-shopify': ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  '@secretlint/secretlint-rule-github': ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  '@secretlint/secretlint-rule-gitlab': ['glpat-'],
  '@secretlint/secretlint-rule-grafana': ['glc_', 'glsa_'],
  '@secretlint/secretlint-rule-openai': ['sk-'],
  '@secretlint/secretlint-rule-anthropic': ['sk-ant-api0'],
  '@secretlint/secretlint-rule-groq': ['gsk_'],
  '@secretlint/secretlint-rule-huggingface': ['hf_'],
  '@secretlint/secretlint-rule-linear': ['lin_api_'],
  '@secretlint/secretlint-rule-notion': ['ntn_'],
  '@secretlint/secretlint-rule-1password': ['ops_'],
  // mongodb(+srv)://, (jdbc:)mysql(x)://, postgres(ql)://
  '@secretlint/secretlint-rule-database-connection-string': ['mongodb', 'mysql', 'postgres'],
  '@secretlint/secretlint-rule-hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  '@secretlint/secretlint-rule-vercel': ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  '@secretlint/secretlint-rule-databricks': ['dapi'],
  '@secretlint/secretlint-rule-docker': ['dckr_pat_'],
  '@secretlint/secretlint-rule-figma': ['figd_'],
  // Only suppresses other rules' reports; not registered at all (see secretlint-secrets.ts).
  '@secretlint/secretlint-rule-filter-comments': [],
};

import { cueGate } from './literal-cues.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Anchors whose rule matches them only as written: the AWS access key id pattern is
 * case-sensitive (`/\b(A3T[A-Z0-9]|AKIA|AGPA|AIDA|…)[A-Z0-9]{16}\b/g`). Read case-blind like
 * the rest, "aida" and "aipa" inside ordinary words sent one English-like claim in forty
 * to secretlint, at about half a millisecond a call.
 */
export const CASE_SENSITIVE_ANCHORS: readonly string[] = ['A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA'];

const ANCHORS = [...new Set(Object.values(RULE_ANCHORS).flat().filter((a): a is string => typeof a === 'string'))];
/** The anchors that are lists: a text may hold a match only if it holds every string of one (read case-blind, without a lower-cased copy of the text). */
const ALL_OF = Object.values(RULE_ANCHORS)
  .flat()
  .filter((a): a is readonly string[] => typeof a !== 'string');
const ALL_OF_PATTERNS = ALL_OF.map((list) => list.map((a) => new RegExp(escape(a), 'i')));
const holdsAllOf = (text: string): boolean => ALL_OF_PATTERNS.some((list) => list.every((pattern) => pattern.test(text)));
export const ANY_ANCHOR = new RegExp(ANCHORS.filter((a) => !CASE_SENSITIVE_ANCHORS.includes(a)).map(escape).join('|'), 'i');
export const KEY_ID_PREFIX = new RegExp(CASE_SENSITIVE_ANCHORS.map(escape).join('|'));
// The same words, read in the scan's one pass over the text (literal-cues.ts); of a list, its
// first string stands for it there.
export const ALL_OF_FIRSTS = new RegExp(ALL_OF.map((list) => escape(list[0]!)).join('|') || '(?!)', 'i');
const ANCHOR_GATE = cueGate([...ANCHORS, ...ALL_OF.map((list) => list[0]!)].map((anchor) => anchor.toLowerCase()), [ANY_ANCHOR, KEY_ID_PREFIX, ALL_OF_FIRSTS]);

export function mayHoldKnownSecret(text: string): boolean {
  return ANCHOR_GATE.mayOccurIn(text) && (ANY_ANCHOR.test(text) || KEY_ID_PREFIX.test(text) || holdsAllOf(text));
}
