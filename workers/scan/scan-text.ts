/**
 * The claim scanner: every detector over one text, merged into one result. Pure: the same
 * text always gives the same result, and nothing outside the text is read.
 */
import type { Finding, ScanResult } from './finding.js';
import { isFlagging, SEVERITY_RANK } from './finding.js';
import { CLASSIFIER_KIND, findAttackLike } from './attack-classifier.js';
import type { AttackModel } from './attack-model.js';
import { ATTACK_MODEL, JAILBREAK_MODEL } from './attack-weights.js';
import { findCommandsToRun } from './commands-to-run.js';
import { findCredentialGaps } from './credential-gaps.js';
import { findDeceptiveUnicode } from './deceptive-unicode.js';
import { findEmbeddedInstructions } from './embedded-instructions.js';
import { findEncodedPayloads } from './encoded-payloads.js';
import { findExfiltrationIntents } from './exfiltration-intents.js';
import { findExecutables } from './executable.js';
import { findInjections } from './injection.js';
import { findJailbreak, type JailbreakModel } from './jailbreak-signals.js';
import { findJwts } from './jwt.js';
import { findMarkupExfiltration } from './markup-exfiltration.js';
import { maskedOrNull, maskExcerpt } from './mask.js';
import { findMixedScriptWords } from './mixed-script.js';
import { findOverrideWords } from './override-words.js';
import { findPackageSources } from './package-sources.js';
import { findPersonalData, type PersonalDataSeverity } from './personal-data.js';
import { findRecallTriggers } from './recall-triggers.js';
import { findSecretAssignments } from './secret-assignments.js';
import { mayHoldKnownSecret } from './secretlint-anchors.js';
import { contentLength } from './trailing-noise.js';
import { findKnownSecrets, SECRETLINT_PRESET_VERSION } from './secretlint-secrets.js';

export const SCANNER_LABEL = `gate-scan/4 ${ATTACK_MODEL.label} secretlint-preset-recommend/${SECRETLINT_PRESET_VERSION}`;

const overlaps = (a: Finding, b: Finding): boolean => a.start < b.end && b.start < a.end;

/**
 * Heuristic secret detectors only speak where no format-specific one did: an AWS secret in
 * `aws_secret_access_key = …` or a JWT in `token = …` is reported once, by its name.
 */
function withoutShadowedGuesses(known: Finding[], guesses: Finding[]): Finding[] {
  const kept: Finding[] = [...known];
  for (const guess of guesses) {
    if (!kept.some((f) => overlaps(f, guess))) kept.push(guess);
  }
  return kept;
}

/**
 * Overlapping findings of one kind (two phrasings of the same override) become one. One
 * pass in start order, remembering the open finding of each kind, so a text with thousands
 * of findings costs no more than it took to find them.
 */
function mergeSameKind(text: string, findings: Finding[]): Finding[] {
  if (findings.length === 0) return [];
  const ordered = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  const open = new Map<string, Finding>();
  // Excerpts of grown findings are cut once at the end: cut at each step, a long attack read
  // in thousands of overlapping windows cost time in the square of its length.
  const grown = new Set<Finding>();
  for (const f of ordered) {
    const twin = open.get(f.kind);
    if (!twin || twin.end <= f.start) {
      const copy = { ...f };
      merged.push(copy);
      open.set(f.kind, copy);
      continue;
    }
    if (f.end > twin.end) {
      twin.end = f.end;
      grown.add(twin);
    }
    if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[twin.severity]) {
      twin.severity = f.severity;
      twin.detail = f.detail;
    }
  }
  for (const f of grown) f.excerpt = maskExcerpt(text.slice(f.start, f.end));
  return merged;
}

export interface ScanOptions {
  /**
   * The row's content type (its kind for gated rows): how much an executable command in it
   * weighs (executable-stakes.ts). Without one the strictest reading applies.
   */
  contentType?: string;
  /** The attack classifier to read with; the committed model by default (a bench passes others). */
  attackModel?: AttackModel;
  /** The jailbreak model to read with; the committed one by default, null for the rule alone. */
  jailbreakModel?: JailbreakModel | null;
  /** The severity of personal data about someone (`scan.personal_data_severity`); default high. */
  personalDataSeverity?: PersonalDataSeverity;
}

export async function scanText(whole: string, options: ScanOptions = {}): Promise<ScanResult> {
  // Trailing whitespace and citation marks say nothing: the verdict is the same without them.
  const text = whole.slice(0, contentLength(whole));
  // Most texts hold no secretlint anchor: asked here, they skip the call and its await.
  const linted = mayHoldKnownSecret(text) ? await findKnownSecrets(text, false) : [];
  const known = [...linted, ...findJwts(text), ...findCredentialGaps(text)];
  const secrets = withoutShadowedGuesses(known, findSecretAssignments(text));
  let findings = mergeSameKind(text, [
    ...secrets,
    ...findInjections(text),
    ...findOverrideWords(text),
    ...findJailbreak(text, options.jailbreakModel === undefined ? JAILBREAK_MODEL : options.jailbreakModel),
    ...findExfiltrationIntents(text),
    ...findMarkupExfiltration(text),
    ...findRecallTriggers(text),
    ...findPackageSources(text),
    ...findEmbeddedInstructions(text),
    ...findExecutables(text, options.contentType),
    ...findCommandsToRun(text, options.contentType),
    ...findEncodedPayloads(text, options.attackModel, options.contentType),
    ...findAttackLike(text, options.attackModel),
    ...findDeceptiveUnicode(text),
    ...findMixedScriptWords(text),
    ...findPersonalData(text, options.personalDataSeverity),
  ]);
  findings.sort((a, b) => a.start - b.start || a.end - b.end || a.kind.localeCompare(b.kind));
  // A classifier window over a command an executable rule already named says less than the
  // rule, and masked as an injection it would hide the command from the person judging it.
  const executables = findings.filter((f) => f.kind.startsWith('executable.'));
  if (executables.length > 0) {
    findings = findings.filter((f) => f.kind !== CLASSIFIER_KIND || !executables.some((e) => e.start < f.end && f.start < e.end));
  }
  return {
    findings,
    flagged: findings.some((f) => isFlagging(f.severity)),
    masked: maskedOrNull(whole, findings),
    scanner: SCANNER_LABEL,
  };
}
