/**
 * Phrases that try to take over an agent that later reads the claim: overriding what it was
 * told, impersonating the system or another role, switching it into a "no rules" persona,
 * or asking it to give up its prompt. Ordinary imperatives stay out on purpose: steering
 * claims exist to instruct agents, so "always run the tests" is content, not an attack.
 * Patterns run on the folded copy, so zero-width splits and look-alike letters do not hide
 * a phrase.
 */
import type { Severity } from './finding.js';

export interface PhraseRule {
  kind: string;
  severity: Severity;
  detail: string;
  pattern: RegExp;
}

// "the above" as an object, but not "the above warning/output/…", which is ordinary prose.
const NOT_A_DOCUMENT_PART =
  '(?!\\s+(?:warning|error|message|output|log|note|example|code|snippet|section|step|table|figure|diagram|list|command|line|screenshot|link|paragraph|chart|query|function|file|config\\w*)s?\\b)';

export const PHRASE_RULES: readonly PhraseRule[] = [
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader to ignore its earlier instructions.',
    pattern:
      /\b(?:ignore|disregard|forget|skip|override|overrule|bypass|discard|abandon)\s+(?:(?:all|any|every|each|the|your|my|these|those|of|everything|anything)\s+){0,3}(?:(?:previous|prior|preceding|above|earlier|foregoing|original|initial|system|developer|safety)\s+){1,2}(?:instructions?|prompts?|directions?|directives?|rules|guidelines|guidance|context|commands|constraints|guardrails|programming)\b/gi,
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader to disregard the text before it.',
    pattern: new RegExp(
      String.raw`\b(?:ignore|disregard|forget)\s+(?:(?:all|everything|anything|the|of)\s+){0,2}(?:(?:text|content|instructions?|messages?|prompts?)\s+)?(?:(?:that\s+)?(?:was|is|were|you\s+were|you've\s+been|you\s+have\s+been)\s+(?:said|written|stated|told|given)\s+)?(?:above|before\s+this|so\s+far|up\s+to\s+(?:now|this\s+point)|until\s+now)\b` +
        NOT_A_DOCUMENT_PART,
      'gi',
    ),
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader not to follow its instructions.',
    pattern:
      /\b(?:do\s+not|don't|never|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)?\s+to|comply(?:ing)?\s+with)\s+(?:(?:the|any|these|those)\s+)?(?:(?:your|previous|prior|original|system|above|earlier|initial)\s+){1,2}(?:instructions?|prompts?|rules|guidelines|directives?)\b/gi,
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'A claim to hand the reader a replacement set of instructions.',
    pattern: /\byour\s+(?:new|real|actual|true|updated)\s+(?:instructions?|directives?|system\s+prompt|task|objective|orders)\s*(?:is|are|:)/gi,
  },
  {
    kind: 'injection.prompt-exfiltration',
    severity: 'high',
    detail: 'A request for the reader to disclose its system prompt or hidden instructions.',
    pattern:
      /\b(?:reveal|print|output|repeat|show|display|leak|disclose|dump|recite|tell\s+me)\s+(?:(?:me|us|your|the|all|of)\s+){0,3}(?:(?:full|entire|complete|hidden|secret|original|initial|exact|verbatim)\s+)?(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions|developer\s+message|instructions\s+above)\b/gi,
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A chat-template control token that marks the start of a system or other role turn.',
    pattern:
      /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id|eom_id|start|end|message|channel)\|>|<(?:start|end)_of_turn>/gi,
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'An instruction marker from a chat prompt template, impersonating the prompt itself.',
    // Case-sensitive: the template spells them in capitals, and Rust code is full of `&[Inst]`.
    pattern: /\[\/?INST\]|<<\/?SYS>>/g,
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A heading that impersonates a system, developer or assistant turn.',
    pattern:
      /^[ \t]{0,3}#{1,6}[ \t]*(?:system|assistant|developer)(?:[ \t]+(?:prompt|message|instructions?|override|note))?[ \t]*:|^[ \t]{0,3}#{2,6}[ \t]*(?:instruction|response)[ \t]*:/gim,
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A role label followed by an instruction addressed to the model.',
    pattern:
      /^[ \t]*(?:system|developer|assistant)(?:[ \t]+(?:prompt|message))?[ \t]*:[ \t]*(?=you\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:AI|assistant|agent|model|language\s+model|helpful)\b|ignore\b|disregard\b|you\s+must\s+(?:now\s+)?(?:ignore|obey|follow)\b)/gim,
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A markup tag that impersonates a system or developer prompt.',
    pattern: /<\/?\s*(?:system[_-](?:prompt|message|instructions?)|developer[_-](?:message|prompt|instructions?)|admin[_-]instructions?)\b[^<>]{0,200}>/gi,
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'An attempt to switch the reader into an unrestricted persona or mode.',
    pattern:
      /\byou\s+are\s+(?:now\s+)?(?:(?:DAN|STAN)\b|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken|unaligned|amoral)\b|(?:now\s+)?in\s+(?:god|jailbreak|DAN|unrestricted)\s+mode\b|(?:now\s+)?free\s+(?:of|from)\s+(?:all\s+|any\s+|your\s+)?(?:restrictions|rules|guidelines|filters|limitations)\b)/gi,
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'A reference to the "Do Anything Now" jailbreak persona.',
    pattern: /\bDAN\b[^.\n]{0,60}\b[Dd]o\s+[Aa]nything\s+[Nn]ow\b|\b[Dd]o\s+[Aa]nything\s+[Nn]ow\b[^.\n]{0,30}\bDAN\b/g,
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'An attempt to switch the reader into an unrestricted persona or mode.',
    pattern:
      /\b(?:enable|activate|enter|switch\s+(?:in)?to|turn\s+on)\s+(?:the\s+)?(?:god|jailbreak|DAN|unrestricted|no[\s-]?limits?)\s+mode\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|unaligned)\b|\bpretend\s+(?:that\s+)?you\s+(?:are\s+not\s+bound\s+by|have\s+no|don't\s+have|do\s+not\s+have)\s+(?:any\s+)?(?:restrictions|rules|guidelines|filters|limitations|content\s+polic(?:y|ies))\b/gi,
  },
];

/**
 * A fake `<system>` tag. The bare word is also a real element elsewhere (Maven's
 * `<system>GitHub</system>`), so it counts only when what it wraps reads as a prompt: several
 * words, or words addressed to the model.
 */
export const SYSTEM_TAG = /<\s*system\s*>([\s\S]{0,600}?)(?:<\/\s*system\s*>|$)/gi;
export const PROMPT_LIKE = /\b(?:you|your|must|ignore|disregard|assistant|AI|model|agent|instructions?)\b|\S+\s+\S+\s+\S+\s+\S+/i;
