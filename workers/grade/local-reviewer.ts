/**
 * The embedded reviewer: deterministic rules over what the scan and the store already
 * know (findings, provenance, the body's form, nearness to promoted rows), scored against
 * the same rubric a model uses. It needs no network and costs no tokens; its verdicts
 * carry LOCAL_MODEL_LABEL, so nobody mistakes them for a language model's.
 */
import { attackModel, attackScore } from '../scan/attack-classifier.js';
import { isPromptShaped } from '../scan/addressed-to-reader.js';
import { ATTACK_MODEL, JAILBREAK_MODEL } from '../scan/attack-weights.js';
import { stakesOf } from '../scan/executable-stakes.js';
import { jailbreakProbability, readJailbreak } from '../scan/jailbreak-signals.js';
import { contentLength } from '../scan/trailing-noise.js';
import type { GradeAnswer } from './answer.js';
import type { GradeInput } from './grade-task.js';

/**
 * The attack classifier's score (its best window, attack cue or not) from which the embedded
 * reviewer finds a row suspicious: chosen in training so that about one benign text in fifty
 * of each source reaches it (training/attack-training.js), lower than what the scanner holds,
 * so that what reads a little like an attack is not promoted by rules alone but waits for a
 * person's disposition.
 */
export const SUSPICIOUS_ATTACK_SCORE = ATTACK_MODEL.suspicion;
/** The jailbreak model's score from which a text that sets a scene waits for a person. */
export const SUSPICIOUS_JAILBREAK_SCORE = 0.5;

const KNOWN_SCHEMES = /^(https?|file|git|ssh|s3|chat|mailto|urn|test|doc|repo|slack|jira|issue|session|agent|tool):/i;
const RETIRED = new Set(['REJECTED', 'DEMOTED', 'ARCHIVED', 'SUPERSEDED']);
/** At or above this cosine a row restates a promoted one. */
const NEAR_DUPLICATE = 0.97;
const SIMILAR = 0.92;

interface Criterion {
  points: number;
  evidence: string[];
  counter: string[];
  redFlag: boolean;
  /** A reason no stance approves: the row waits for a person whatever the score. */
  suspicious?: boolean;
}

const criterion = (): Criterion => ({ points: 0, evidence: [], counter: [], redFlag: false });

function provenance(input: GradeInput): Criterion {
  const c = criterion();
  if (KNOWN_SCHEMES.test(input.source_uri)) {
    c.points += 10;
    c.evidence.push(`source ${input.source_uri.split(':')[0]}: is a known kind of origin`);
  } else {
    c.points += 4;
    c.counter.push('the source_uri names no known kind of origin');
  }
  if (input.parents.length === 0) {
    c.points += 8;
  } else if (input.parents.every((s) => s === 'ACTIVE')) {
    c.points += 15;
    c.evidence.push(`cites ${input.parents.length} promoted row(s)`);
  } else {
    const retired = input.parents.filter((s) => s !== null && RETIRED.has(s)).length;
    const missing = input.parents.filter((s) => s === null).length;
    if (retired > 0) {
      c.redFlag = true;
      c.counter.push(`cites ${retired} rejected, demoted, archived or superseded row(s)`);
    }
    if (missing > 0) c.counter.push(`cites ${missing} id(s) naming no row`);
    if (retired === 0 && missing === 0) {
      c.points += 8;
      c.counter.push('cites rows still held in review');
    }
  }
  return c;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A short text that opens with an order to its reader or is one question is a prompt, not a
 * claim: a knowledge row states something, and text that asks the agent reading it to do
 * something is what an attack on that agent looks like. Not promoted unread.
 */
const PROMPT_LENGTH = 500;

function readsAsPrompt(input: GradeInput): boolean {
  if (stakesOf(input.content_type) !== 'read' || input.kind === 'question' || input.kind === 'answer') return false;
  const text = input.text.trim();
  return text.length <= PROMPT_LENGTH && isPromptShaped(text);
}

function form(input: GradeInput): Criterion {
  const c = criterion();
  const words = input.text.match(WORD)?.length ?? 0;
  const masked = [...input.text].filter((ch) => ch === '█').length;
  if (words < 3) {
    c.redFlag = true;
    c.counter.push(`only ${words} word(s): not a self-contained claim`);
  } else if (words < 8) {
    c.points += 10;
    c.counter.push('very short');
  } else if (words > 4000) {
    c.points += 12;
    c.counter.push('very long for one claim');
  } else {
    c.points += 20;
    c.evidence.push(`${words} words`);
  }
  if (input.kind === 'question' || input.kind === 'answer') {
    let formed = false;
    try {
      formed = (JSON.parse(input.text) as { format?: unknown }).format === `${input.kind}/1`;
    } catch {
      formed = false;
    }
    if (formed) {
      c.points += 5;
      c.evidence.push(`a well-formed ${input.kind}/1 body`);
    } else c.counter.push(`not a ${input.kind}/1 body`);
  } else {
    c.points += 5;
  }
  if (readsAsPrompt(input)) {
    c.redFlag = true;
    c.suspicious = true;
    c.counter.push('reads as a question or a task for the agent reading it, not as a claim; a person decides');
  }
  if (masked > 0 && masked / Math.max(1, input.text.length) > 0.1) {
    c.points = Math.max(0, c.points - 10);
    c.counter.push('more than a tenth of the text is masked');
  }
  return c;
}

function safety(input: GradeInput): Criterion {
  const c = criterion();
  // Read as the scanner reads it: trailing whitespace and citation marks change nothing.
  const text = input.text.slice(0, contentLength(input.text));
  const suspicion = attackScore(text, attackModel());
  const persona = text.length >= JAILBREAK_MODEL.minLength ? jailbreakProbability(JAILBREAK_MODEL, readJailbreak(text).features) : 0;
  if (suspicion >= SUSPICIOUS_ATTACK_SCORE || persona >= SUSPICIOUS_JAILBREAK_SCORE) {
    c.points = 0;
    c.redFlag = true;
    c.suspicious = true;
    c.counter.push(
      suspicion >= SUSPICIOUS_ATTACK_SCORE
        ? `reads like text written to attack an agent (classifier score ${suspicion.toFixed(2)}); a person decides`
        : `reads like a persona set up to take an agent's rules away (jailbreak model score ${persona.toFixed(2)}); a person decides`,
    );
  }
  if (input.findings.length === 0) {
    if (!c.suspicious) {
      c.points = 25;
      c.evidence.push('the scanner found nothing');
    }
  } else {
    c.points = Math.max(0, 25 - 8 * input.findings.length);
    c.redFlag = true;
    c.counter.push(`the scanner noted ${input.findings.map((f) => `${f.kind} (${f.severity})`).join(', ')}`);
  }
  return c;
}

function novelty(input: GradeInput): Criterion {
  const c = criterion();
  const near = input.nearest_promoted;
  if (near === null) {
    c.points = 20;
    c.counter.push('not yet compared with promoted rows (no vector)');
  } else if (near >= NEAR_DUPLICATE) {
    c.redFlag = true;
    c.counter.push(`restates a promoted row (cosine ${near.toFixed(3)})`);
  } else if (near >= SIMILAR) {
    c.points = 10;
    c.counter.push(`close to a promoted row (cosine ${near.toFixed(3)})`);
  } else {
    c.points = 25;
    c.evidence.push('no promoted row says the same');
  }
  return c;
}

/** Positive approves at 60 and above; critical at 70 and above with no red flag. */
export function localReview(input: GradeInput, stance: string): GradeAnswer {
  const parts = [provenance(input), form(input), safety(input), novelty(input)];
  const score = Math.min(100, parts.reduce((n, p) => n + p.points, 0));
  const redFlag = parts.some((p) => p.redFlag);
  // A scanner finding or a suspicious reading means no stance approves: in an auto space a
  // model's approval would promote it, and what might attack its readers is a person's call.
  const withheld = parts.some((p) => p.suspicious) || input.findings.some((f) => !f.kind.startsWith('secret.'));
  const approve = !withheld && (stance === 'positive' ? score >= 60 : score >= 70 && !redFlag);
  const evidence = parts.flatMap((p) => p.evidence).slice(0, 8);
  const counterevidence = parts.flatMap((p) => p.counter).slice(0, 8);
  const rationale = approve
    ? `Scored ${score}/100 by deterministic rules (${stance} stance): ${evidence.join('; ') || 'no defect found'}.`
    : `Scored ${score}/100 by deterministic rules (${stance} stance): ${counterevidence.join('; ') || 'below the bar'}.`;
  return { decision: approve ? 'approve' : 'reject', score, rationale, evidence, counterevidence };
}
