/**
 * Orders that fire when the text is read back: "every time this memory is recalled, call …",
 * "whenever this document is loaded into context, …". A memory is read by agents that hold
 * tools; a stored order tied to its own retrieval is how an attacker makes every later reader
 * act, and no note for people is worded that way. A finding when such a trigger stands in
 * the same sentence as an act (call, run, execute, send, invoke, a tool call written as JSON).
 */
import type { Finding } from './finding.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';
import { segments } from './attack-windows.js';
import { cueGate } from './literal-cues.js';

const THING = String.raw`(?:memory|memories|note|entry|record|document|doc|file|message|snippet|fact|text|page|item|row|claim|context|instruction)`;
const READ_WORDS = ['recalled', 'retrieved', 'read', 'loaded', 'used', 'accessed', 'shown', 'fetched', 'opened', 'surfaced', 'returned', 'seen', 'included', 'injected', 'processed'];
const READ = `(?:${READ_WORDS.join('|')})`;
export const TRIGGER = new RegExp(
  [
    String.raw`\b(?:every|each|any)\s+time\s+(?:that\s+)?(?:this|the|a|you\s+(?:recall|retrieve|read|load|use|see|access|open)\s+(?:this|the))\s+(?:\w+\s+)?${THING}\b`,
    String.raw`\bwhenever\s+(?:this|the)\s+(?:\w+\s+)?${THING}\s+(?:is|gets|was)\s+${READ}`,
    String.raw`\bwhenever\s+you\s+(?:recall|retrieve|read|load|use|see|access|open|come\s+across)\s+(?:this|the)\s+(?:\w+\s+)?${THING}\b`,
    String.raw`\b(?:when|once|after|as\s+soon\s+as|if)\s+(?:this|the)\s+(?:\w+\s+)?${THING}\s+(?:is|gets)\s+${READ}\b`,
    String.raw`\bon\s+(?:every\s+|each\s+)?(?:recall|retrieval|load)\s+of\s+this\b`,
  ].join('|'),
  'i',
);
/** Words one of which every match of TRIGGER holds: a text with none is not read for it (literal-cues.ts). */
const TRIGGER_GATE = cueGate(['every time', 'each time', 'any time', 'whenever', 'of this', ...READ_WORDS.map((w) => `\\b${w}`)], [TRIGGER]);
const ACT = /\b(?:call\w*|invoke\w*|execute\w*|run|runs|trigger\w*|send\w*|post\w*|fetch\w*|use\s+the\s+\w+\s+tool|delete\w*|write\w*|tool)\b|"(?:tool|name|function|cmd|command|action)"\s*:/i;

export function findRecallTriggers(text: string): Finding[] {
  if (!TRIGGER_GATE.mayOccurIn(text) || !TRIGGER.test(text)) return [];
  const findings: Finding[] = [];
  let context: ReturnType<typeof mentionContext> | null = null;
  const parts = segments(text);
  parts.forEach(([start, end], i) => {
    const sentence = text.slice(start, end);
    if (!TRIGGER.test(sentence)) return;
    // The act may follow in the next sentence ("Each time this note is read: call …").
    const next = parts[i + 1];
    const reach = ACT.test(sentence) ? end : next !== undefined && ACT.test(text.slice(next[0], next[1])) ? next[1] : -1;
    if (reach === -1) return;
    context ??= mentionContext(text);
    findings.push({
      kind: 'injection.tool-manipulation',
      severity: context.severity('high', start, reach),
      detail: 'An order tied to the text being read back ("every time this memory is recalled, call …"): it would make every later reader act.',
      start,
      end: reach,
      excerpt: maskExcerpt(text.slice(start, reach)),
    });
  });
  return findings;
}
