/**
 * Findings of the attack classifier: text that reads like what attackers write to an agent
 * (instruction overrides, persona switches, requests for the agent's instructions or
 * memory, commands to run) in wordings no phrase rule lists. Only a window that holds a cue
 * of what attacks ask for (attack-cues.ts) can be a finding: the model also reads style, and
 * on kinds of text it never saw, style is what misleads it. The phrase rules say exactly
 * what matched; the classifier generalises from the examples it was trained on
 * (training/attack-model.js), and says which window of the text read as an attack and how
 * strongly. Its severity is capped the same way as a phrase's when the window is a quoted
 * or discussed mention (mention-context.ts), so a note about attacks is not held as one.
 */
import { AttackModel } from './attack-model.js';
import { ATTACK_MODEL } from './attack-weights.js';
import { holdsAttackCue } from './attack-cues.js';
import { windowBounds } from './attack-windows.js';
import type { Finding, Severity } from './finding.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';

let shared: AttackModel | null = null;

/** The committed model, built once a thread. */
export function attackModel(): AttackModel {
  shared ??= new AttackModel(ATTACK_MODEL);
  return shared;
}

export const CLASSIFIER_KIND = 'injection.classifier';

export function findAttackLike(text: string, model: AttackModel = attackModel()): Finding[] {
  const findings: Finding[] = [];
  let context: ReturnType<typeof mentionContext> | null = null;
  const bounds = windowBounds(text);
  for (let w = 0; w < bounds.length; w += 2) {
    const start = bounds[w]!;
    const end = bounds[w + 1]!;
    // The cue first: most windows of what agents store hold none, and reading one costs a
    // fraction of the model's n-grams (issue 44's CPU budget, docs/scanner.md).
    if (!holdsAttackCue(text, start, end)) continue;
    const p = model.probability(text, start, end);
    if (p < model.threshold) continue;
    context ??= mentionContext(text);
    const base: Severity = p >= model.high ? 'high' : 'medium';
    // A window that only quotes or discusses attacks is no finding of the classifier's: its
    // evidence is the whole window, and masked as a low finding it would hide a paragraph of
    // a note about attacks from the graders. The phrase rules still name the quoted phrases.
    const severity = context.discussesQuoted(start, end) ? 'low' : context.severity(base, start, end);
    if (severity === 'low') continue;
    findings.push({
      kind: CLASSIFIER_KIND,
      severity,
      detail: `Reads like text written to attack an agent that reads it (model ${model.label}, score ${p.toFixed(2)} of 1).`,
      start,
      end,
      excerpt: maskExcerpt(text.slice(start, end)),
    });
  }
  return findings;
}

/**
 * The highest score of any window, cue or not, for the built-in reviewer: a row the classifier
 * found suspicious (model.suspicion) but did not hold still should not be promoted by a model.
 */
export function attackScore(text: string, model: AttackModel = attackModel()): number {
  let best = 0;
  const bounds = windowBounds(text);
  for (let w = 0; w < bounds.length; w += 2) best = Math.max(best, model.probability(text, bounds[w]!, bounds[w + 1]!));
  return best;
}
