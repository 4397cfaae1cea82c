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
  /**
   * Words (lowercase, literal) of which every match contains one: the pattern runs only on
   * a text holding one of them. Most claims hold none, and a substring search costs a
   * fraction of a pattern's (or a case-blind alternation's) pass over the text.
   */
  cues?: readonly string[];
  /** The rule also runs on every text with a character outside ASCII (its words are in other scripts). */
  anyScript?: boolean;
}

// "the above" as an object, but not "the above warning/output/…", which is ordinary prose.
const NOT_A_DOCUMENT_PART =
  '(?!\\s+(?:warning|error|message|output|log|note|example|code|snippet|section|step|table|figure|diagram|list|command|line|screenshot|link|paragraph|chart|query|function|file|config\\w*)s?\\b)';

const CLASSIC_RULES: readonly PhraseRule[] = [
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader to ignore its earlier instructions.',
    pattern:
      /\b(?:ignore|disregard|forget|skip|override|overrule|bypass|discard|abandon)\s+(?:(?:all|any|every|each|the|your|my|these|those|of|everything|anything)\s+){0,3}(?:(?:previous|prior|preceding|above|earlier|foregoing|original|initial|system|developer|safety)\s+){1,2}(?:instructions?|prompts?|directions?|directives?|rules|guidelines|guidance|context|commands|constraints|guardrails|programming)\b/gi,
    cues: ['ignor', 'disregard', 'forget', 'skip', 'overrid', 'overrul', 'bypass', 'discard', 'abandon'],
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
    cues: ['ignor', 'disregard', 'forget'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader not to follow its instructions.',
    pattern:
      /\b(?:do\s+not|don't|never|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)?\s+to|comply(?:ing)?\s+with)\s+(?:(?:the|any|these|those)\s+)?(?:(?:your|previous|prior|original|system|above|earlier|initial)\s+){1,2}(?:instructions?|prompts?|rules|guidelines|directives?)\b/gi,
    cues: ['follow', 'obey', 'listen', 'comply'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'A claim to hand the reader a replacement set of instructions.',
    pattern: /\byour\s+(?:new|real|actual|true|updated)\s+(?:(?:primary|main|only|sole)\s+)?(?:instructions?|directives?|system\s+prompt|task|objective|orders|goal|purpose|mission|role)\s*(?:is|are|:)/gi,
    cues: ['your'],
  },
  {
    kind: 'injection.prompt-exfiltration',
    severity: 'high',
    detail: 'A request for the reader to disclose its system prompt or hidden instructions.',
    pattern:
      /\b(?:reveal|print|output|repeat|show|display|leak|disclose|dump|recite|tell\s+me)\s+(?:(?:me|us|your|the|all|of)\s+){0,3}(?:(?:full|entire|complete|hidden|secret|original|initial|exact|verbatim)\s+)?(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions|developer\s+message|instructions\s+above)\b/gi,
    cues: ['system', 'initial', 'hidden', 'developer', 'instructions'],
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A chat-template control token that marks the start of a system or other role turn.',
    pattern:
      /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id|eom_id|start|end|message|channel)\|>|<(?:start|end)_of_turn>/gi,
    cues: ['<|', '_of_turn>'],
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'An instruction marker from a chat prompt template, impersonating the prompt itself.',
    // Case-sensitive: the template spells them in capitals, and Rust code is full of `&[Inst]`.
    pattern: /\[\/?INST\]|<<\/?SYS>>/g,
    // Its four spellings, lower-cased as the cue stream reads them: the one rule that ran on every text.
    cues: ['[inst]', '[/inst]', '<<sys>>', '<</sys>>'],
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A heading that impersonates a system, developer or assistant turn.',
    pattern:
      /^[ \t]{0,3}#{1,6}[ \t]*(?:system|assistant|developer)(?:[ \t]+(?:prompt|message|instructions?|override|note))?[ \t]*:|^[ \t]{0,3}#{2,6}[ \t]*(?:instruction|response)[ \t]*:/gim,
    cues: ['#'],
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A role label followed by an instruction addressed to the model.',
    pattern:
      /^[ \t]*(?:system|developer|assistant)(?:[ \t]+(?:prompt|message))?[ \t]*:[ \t]*(?=you\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:AI|assistant|agent|model|language\s+model|helpful)\b|ignore\b|disregard\b|you\s+must\s+(?:now\s+)?(?:ignore|obey|follow)\b)/gim,
    cues: ['system', 'developer', 'assistant'],
  },
  {
    kind: 'injection.role-impersonation',
    severity: 'high',
    detail: 'A markup tag that impersonates a system or developer prompt.',
    pattern: /<\/?\s*(?:system[_-](?:prompt|message|instructions?)|developer[_-](?:message|prompt|instructions?)|admin[_-]instructions?)\b[^<>]{0,200}>/gi,
    cues: ['system', 'developer', 'admin'],
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'An attempt to switch the reader into an unrestricted persona or mode.',
    pattern:
      /\byou\s+are\s+(?:now\s+)?(?:(?:DAN|STAN)\b|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken|unaligned|amoral)\b|(?:now\s+)?in\s+(?:god|jailbreak|DAN|unrestricted)\s+mode\b|(?:now\s+)?free\s+(?:of|from)\s+(?:all\s+|any\s+|your\s+)?(?:restrictions|rules|guidelines|filters|limitations)\b)/gi,
    cues: ['you are'],
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'A reference to the "Do Anything Now" jailbreak persona.',
    pattern: /\bDAN\b[^.\n]{0,60}\b[Dd]o\s+[Aa]nything\s+[Nn]ow\b|\b[Dd]o\s+[Aa]nything\s+[Nn]ow\b[^.\n]{0,30}\bDAN\b/g,
    cues: ['anything now'],
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'An attempt to switch the reader into an unrestricted persona or mode.',
    pattern:
      /\b(?:enable|activate|enter|switch\s+(?:in)?to|turn\s+on)\s+(?:the\s+)?(?:god|jailbreak|DAN|unrestricted|no[\s-]?limits?)\s+mode\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|unaligned)\b|\bpretend\s+(?:that\s+)?you\s+(?:are\s+not\s+bound\s+by|have\s+no|don't\s+have|do\s+not\s+have)\s+(?:any\s+)?(?:restrictions|rules|guidelines|filters|limitations|content\s+polic(?:y|ies))\b/gi,
    cues: ['mode', 'act as', 'pretend'],
  },
];

/**
 * Further spellings of "forget what you were told": the instructions "you got before", "any
 * previous and following" ones, a clean slate, instructions declared revoked, and the same
 * override in the languages attackers use to slip past English-only rules.
 */
const OVERRIDE_SPELLINGS: readonly PhraseRule[] = [
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader to ignore the instructions it was given.',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|each|the|your|my|of|these|those)\s+){0,3}(?:(?:previous|prior|preceding|earlier|above|other|and|following|existing|current|standard|usual|default)\s+){0,3}(?:instructions?|prompts?|directives?|rules|guidelines|constraints|restrictions|limitations|safety\s+(?:rules|guidelines|protocols|measures|filters|checks))\s+(?:(?:that\s+)?you\s+(?:got|were\s+given|have\s+been\s+given|received|had)|given\s+to\s+you|you've\s+been\s+given)\b/gi,
    cues: ['ignor', 'disregard', 'forget', 'overrid', 'bypass'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader to ignore its earlier and later instructions.',
    pattern: /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|preceding|above)\s+(?:and|&|or)\s+(?:following|subsequent|later|below)\s+(?:instructions?|prompts?|directions?|rules)\b/gi,
    cues: ['ignor', 'disregard', 'forget'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction telling the reader to drop what it was told and take new rules.',
    pattern:
      /\b(?:forget|erase|clear|wipe)\s+(?:everything|all(?:\s+of\s+it)?|anything)\s+(?:(?:you\s+(?:were|have\s+been)\s+(?:told|taught|given|instructed))|(?:before|above|prior\s+to)\s+this(?:\s+(?:message|point|line|prompt))?|(?:I|we)\s+(?:said|told\s+you)\s+before)\b|\b(?:previous|prior|earlier|original|all)\s+(?:instructions?|directives?|rules|guidelines)\s+(?:are|have\s+been|were)\s+(?:now\s+)?(?:revoked|void(?:ed)?|cancell?ed|nullified|null|obsolete|overridden|suspended|lifted|no\s+longer\s+(?:valid|apply|in\s+effect))\b/gi,
    cues: ['forget', 'erase', 'clear', 'wipe', 'revoked', 'void', 'cancel', 'nullified', 'null', 'obsolete', 'overridden', 'suspended', 'lifted', 'no longer'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'A new set of instructions announced to the reader in place of its own.',
    pattern:
      /\bnew\s+(?:system\s+)?(?:instructions?|directives?|rules|orders)\s*(?:-|–|—|:)\s*(?=\S)|\b(?:from\s+now\s+on|for\s+the\s+rest\s+of\s+(?:this|the)\s+(?:conversation|session|chat)),?\s+(?:you\s+(?:will|must|shall|should|are\s+(?:going\s+to|to))\s+(?:only\s+)?(?:act|behave|respond|answer|obey|follow|ignore|pretend|be\b|only\b)|(?:only\s+)?follow\s+my\s+(?:rules|instructions|orders))|\b(?:my|user)\s+instructions\s+(?:take\s+(?:priority|precedence)|override|are\s+more\s+important\s+than|supersede)\b[^.\n]{0,40}\b(?:system|developer|your|any|previous)\b/gi,
    cues: ['new', 'from now on', 'rest of', 'instructions'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An order to drop everything and print what the text dictates.',
    pattern: /\bstop\s+everything\b[^\n]{0,40}?\b(?:(?:just|now|and)\s+)?(?:print|say|output|write|respond|reply)\b|\b(?:ignore|disregard)\s+(?:that|this|it|everything|the\s+(?:question|request|above|user(?:'s\s+(?:request|question|message))?))(?:\s*,)?\s+(?:and\s+)?(?:just\s+|instead\s+|simply\s+)?(?:print|say|output|write|respond|reply|tell\s+me|answer)\b|\b(?:ignore|disregard|bypass)\s+(?:all|everything|limits|security|safety|rules|restrictions|filters|guidelines)\s*:/gi,
    cues: ['stop everything', 'ignor', 'disregard'],
  },
  {
    kind: 'injection.instruction-override',
    severity: 'high',
    detail: 'An instruction, in another language, telling the reader to ignore its instructions or rules.',
    pattern: new RegExp(
      [
        // French, Spanish, Portuguese, Italian, German, Dutch.
        String.raw`\bignor(?:ez|e|a|er|ar|iere|ieren|eer)\s+(?:(?:toutes|tous|todas|todos|tutte|tutti|alle|les|las|los|as|os|le|die|de)\s+){0,2}(?:(?:pr[ée]c[ée]dentes|anteriores|precedenti|vorherigen|vorigen|eerdere)\s+)?(?:instructions|instrucciones|instru[çc][õo]es|istruzioni|anweisungen|instructies|r[èe]gles|reglas|regras|regole|regeln|regels)\b`,
        String.raw`\b(?:alle\s+)?(?:vorherigen\s+)?anweisungen\s+ignorieren\b`,
        // Russian and Ukrainian.
        String.raw`(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|ігноруй(?:те)?|забудь)\s+(?:(?:все|всі|предыдущие|попередні|свои|свої)\s+){0,2}(?:инструкции|правила|указания|інструкції|вказівки)`,
        // Chinese, Japanese, Korean.
        String.raw`(?:忽略|无视|無視|忽視)(?:所有|全部|之前的?|以前的?|先前的?|上述)*(?:的)?(?:指令|指示|说明|說明|规则|規則)`,
        // At most four qualifiers before the noun: from each of a long run of them, the run was read to its end.
        String.raw`(?:以前の|前の|すべての){0,4}(?:指示|命令|ルール)を(?:すべて)?無視`,
        String.raw`(?:모든\s*|이전\s*){0,4}(?:지침|지시|규칙|명령)(?:을|를)\s*무시`,
        // Arabic, Hebrew, Persian, Turkish, Hindi.
        String.raw`تجاهل\s+(?:جميع\s+|كل\s+)?(?:التعليمات|القواعد|الأوامر)`,
        String.raw`התעלם\s+(?:מכל\s+)?(?:ה)?(?:הוראות|כללים|מההוראות|מהכללים)`,
        // A run of spaces read by one quantifier, where the two optional suffixes let two split it every way.
        String.raw`(?:دستورالعمل|دستورات|قوانین|قواعد)(?:[\u200c\s]*(?:های\s+قبلی|ها|ی\s+قبلی)\s+|[\u200c\s]*\s)را\s+نادیده\s+بگیر`,
        String.raw`\b(?:tüm\s+|önceki\s+){0,4}(?:talimatları|kuralları)\s+(?:yok\s+say|görmezden\s+gel)`,
        String.raw`(?:सभी\s+)?(?:पिछले\s+)?(?:निर्देशों|नियमों)\s+(?:को\s+)?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज)`,
      ].join('|'),
      'giu',
    ),
    cues: ['ignor', 'anweisungen'],
    anyScript: true,
  },
];

/**
 * Switching the reader into a role or mode without its rules: an administrator or root
 * persona, a named "mode" enabled, its safety declared off.
 */
const MODE_SWITCHES: readonly PhraseRule[] = [
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'An attempt to switch the reader into a mode without its rules (DAN, god, jailbreak, unrestricted mode).',
    pattern:
      /\b(?:with\s+|in\s+|enter(?:ing)?\s+|enable\s+|activate\s+)?(?:DAN|god|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|evil)\s+mode\s+(?:is\s+(?:now\s+)?)?(?:enabled|activated|engaged|on\b|unlocked)|\b(?:enter|enable|activate|switch\s+(?:in)?to|turn\s+on)\s+(?:the\s+)?(?:evil|uncensored|unfiltered)\s+mode\b/gi,
    cues: ['mode'],
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'An attempt to take the reader out of its role and into one with power over the system.',
    pattern:
      /\byou\s+are\s+no\s+longer\s+(?:an?\s+)?(?:AI|assistant|language\s+model|chat\s*bot|ChatGPT|GPT|Claude|Gemini|bound\s+by|restricted|limited)\b|\b(?:forget\s+(?:that\s+)?you\s+are\s+an?\s+(?:AI|assistant|language\s+model))\b|\b(?:act|behave|operate|respond)\s+as\s+(?:(?:a|an|the|my)\s+)?(?:root(?:\s+user)?|superuser|sysadmin|system\s+administrator|admin(?:istrator)?|hacker|evil\s*\w*|rootkit|malware|virus|worm|keylogger|backdoor|AI\s+(?:without|with\s+no)\s+(?:any\s+)?(?:restrictions|rules|limits|filters))\b(?!\s+(?:account|role|panel|console|guide|team|tasks?)\b)|\byou\s+are\s+(?:now\s+)?(?:the\s+)?(?:root\s+user|superuser|a\s+hacker|the\s+system\s+prompt|an?\s+AI\s+(?:without|with\s+no)\s+(?:any\s+)?(?:restrictions|rules|limits|filters|guidelines))\b|\byou\s+(?:will|are\s+going\s+to|must|shall)\s+(?:now\s+)?(?:simulate|play|become|act\s+as|roleplay\s+as|pretend\s+to\s+be|impersonate)\s+(?:an?\s+)?(?:(?:AI|chatbot|model|character|persona)\s+)?(?:called|named)\b/gi,
    cues: ['no longer', 'forget', 'act as', 'behave as', 'operate as', 'respond as', 'you are', 'you will', 'you must', 'you shall', 'going to'],
  },
  {
    kind: 'injection.persona-override',
    severity: 'high',
    detail: 'A claim that the reader\'s safety measures are switched off, or an order to switch them off.',
    pattern:
      /\b(?:safety|content|security)\s+(?:protocols?|filters?|features?|checks?|measures?|guidelines|restrictions|mechanisms?|settings?)\s+(?:are\s+|have\s+been\s+|is\s+)?(?:now\s+)?(?:disabled|suspended|deactivated|turned\s+off|removed|lifted|overridden|bypassed|off\b)|\b(?:disable|deactivate|turn\s+off|remove|suspend|switch\s+off|bypass|skip|ignore)\s+(?:all\s+|your\s+|the\s+|any\s+)*(?:safety|content|moderation)\s+(?:protocols?|filters?|features?|checks?|measures?|guidelines|restrictions|mechanisms?|rules)\b|\b(?:approve|accept|answer|comply\s+with)\s+(?:all|every|any)\s+(?:requests?|questions?|prompts?)\s+(?:unconditionally|without\s+(?:restrictions?|question|refusing|limits))\b/gi,
    cues: ['safety', 'content', 'security', 'moderation', 'unconditionally', 'without'],
  },
];

/**
 * Requests for what the reader holds: its instructions in any wording ("format your
 * instructions as…", "what are your instructions"), its memory, its users' data or secrets.
 */
const DISCLOSURE_REQUESTS: readonly PhraseRule[] = [
  {
    kind: 'injection.prompt-exfiltration',
    severity: 'high',
    detail: 'A request for the reader to disclose the instructions it was given.',
    pattern:
      /\b(?:reveal|print|output|repeat|show|display|leak|disclose|dump|recite|list|format|write\s+out|spell\s+out|summari[sz]e|translate|encode|paste|copy|share|give\s+me|tell\s+me)\s+(?:me\s+|us\s+)?(?:all\s+(?:of\s+)?)?(?:your|the\s+(?:AI's|assistant's|model's|bot's))\s+(?:(?:full|entire|complete|exact|original|initial|hidden|secret|internal|current|system|custom|verbatim|starting|first)\s+){0,3}(?:instructions?|prompts?|system\s+prompt|system\s+message|directives?|guidelines|rules|configuration|initiali[sz]ation|programming|training\s+data)\b|\bwhat\s+(?:are|were)\s+your\s+(?:(?:full|exact|original|initial|hidden|secret|system|current)\s+){0,2}(?:instructions|system\s+prompt|directives|guidelines|rules)\b|\b(?:repeat|print|output|show|summari[sz]e)\s+(?:me\s+)?(?:the|all)\s+(?:instructions|text|words|prompt)\s+(?:(?:you\s+were|that\s+you\s+were)\s+given|given\s+to\s+you|above|before\s+this|at\s+the\s+(?:start|beginning))\b|\boutput\s+(?:the\s+)?initiali[sz]ation\s+above\b/gi,
    cues: ['your', 'instructions', 'initiali'],
  },
  {
    kind: 'injection.data-exfiltration',
    severity: 'high',
    detail: "A request for the reader to hand over its memory, its users' data or credentials.",
    pattern:
      /\b(?:dump|leak|exfiltrate|reveal|print|show|display|list|recite|output|give\s+me)\s+(?:me\s+)?(?:all\s+(?:of\s+)?|every\s+|the\s+|your\s+|its\s+)*(?:(?:stored|saved|cached|private|confidential|internal|hidden|other\s+users?'?s?|all\s+users?'?|session)\s+){1,2}(?:memor(?:y|ies)(?:\s+contents)?|data|records|conversations?|chats?|messages|cookies|tokens|credentials|passwords?|secrets|api\s+keys|emails?|files|logs|history|details)\b|\b(?:dump|leak|exfiltrate)\s+(?:all\s+)?(?:the\s+|your\s+)?(?:memory(?:\s+contents)?|database|session\s+cookies|credentials|passwords|environment(?:\s+variables)?|secrets|api\s+keys|tokens)\b|\b(?:show|display|print|reveal|list)\s+(?:all\s+)?(?:user|users'|customer)\s+passwords?\b|\b(?:show|display|print|reveal|list|give\s+me|send\s+me|dump|leak|output)\s+(?:me\s+)?(?:all\s+|the\s+|every\s+)?(?:stored\s+)?(?:credit\s+card|card|payment|bank|ssn|social\s+security|login|admin)\s+(?:details|numbers?|data|info(?:rmation)?|credentials|passwords?)\s+(?:for|of|from)\b|\bsend\s+(?:it|this|them|the\s+(?:value|result|output|password|token|key))\s+to\s+me\b[^\n]{0,20}:\s*\S/gi,
    cues: ['dump', 'leak', 'exfiltrat', 'memor', 'data', 'details', 'numbers', 'send', 'record', 'conversation', 'chat', 'message', 'cookie', 'token', 'credential', 'password', 'secret', 'api key', 'email', 'file', 'log', 'history', 'detail'],
  },
];

/**
 * Working on the agent rather than on its instructions: talking it past its safety ("explain
 * how an AI could bypass its safeguards", "safety doesn't matter"), forcing its output
 * (repeat forever), its tools (call with admin rights, make the safety check return true)
 * or what it was trained on.
 */
const MANIPULATION_REQUESTS: readonly PhraseRule[] = [
  {
    kind: 'injection.safety-bypass-request',
    severity: 'high',
    detail: "A request for a way around an AI's safety measures, or a claim that they do not apply.",
    pattern:
      /\bhow\s+(?:an?\s+|the\s+)?(?:AI|AIs|model|models|LLMs?|assistant|chatbot|you|it)\s+(?:systems?\s+)?(?:could|can|might|would|should)\s+(?:bypass|circumvent|evade|get\s+around|break|disable|override|defeat|escape)\s+(?:its|their|your|the|these|those|them)?\s*(?:own\s+)?(?:safety|restrictions|safeguards|limitations|limits|filters|guardrails|rules|guidelines|them)?|\b(?:AI|models?|LLMs?|assistants?)\s+(?:that\s+)?(?:don't|do\s+not|doesn't|does\s+not|without)\s+(?:have\s+)?(?:any\s+)?(?:safety\s+)?(?:restrictions|rules|filters|guidelines|limitations|safeguards)\b|\bsafety\s+(?:doesn't|does\s+not|no\s+longer)\s+matters?\b|\bforget\s+(?:about\s+)?(?:being|to\s+be)\s+(?:harmless|safe|ethical)\b|\b(?:force|trick|make|get|convince|manipulate|coerce)\s+(?:the|an?|this|your)\s+(?:model|AI|assistant|LLM|chatbot|bot)\s+(?:to|into)\s+(?:give|reveal|ignore|bypass|break|disclose|produce|say|output|leak)\w*/gi,
    cues: ['bypass', 'circumvent', 'evade', 'get around', 'break', 'disable', 'override', 'defeat', 'escape', "don't", 'do not', "doesn't", 'does not', 'without', 'safety', 'harmless', 'force', 'trick', 'convince', 'manipulat', 'coerce', 'make', 'get'],
  },
  {
    kind: 'injection.runaway-output',
    severity: 'medium',
    detail: 'An order to the reader to produce output without end, a way to exhaust it or to make it spill its memory.',
    pattern:
      /(?:^|[.!?:]\s+|\n)(?:please\s+)?(?:repeat|say|print|write|output|type|generate|continue)\b[^\n.]{0,80}?\b(?:forever|infinitely|endlessly|indefinitely|again\s+and\s+again|non-?stop|without\s+(?:stopping|end)|until\s+you\s+(?:run\s+out|crash))\b|\b(?:write|tell|generate)\s+(?:me\s+)?an?\s+never[\s-]?ending\b/gi,
    cues: ['forever', 'infinite', 'endless', 'indefinite', 'again and again', 'nonstop', 'non-stop', 'without stopping', 'without end', 'until you', 'never'],
  },
  {
    kind: 'injection.tool-manipulation',
    severity: 'high',
    detail: "An attempt to steer the reader's tools or state: calls with administrator rights, a safety check told what to answer, checks skipped.",
    pattern:
      /\b(?:admin(?:_mode|istrator)?|is_admin|privileged|superuser|root)['"]?\s*[:=]\s*(?:true|1|yes)\b|\brestricted['"]?\s*[:=]\s*(?:false|0|no)\b|\balways\s+return\s+(?:[{(\[]\s*)?['"]?(?:safe|allowed|approved|authori[sz]ed|valid|ok|passed)['"]?\s*[:=]\s*(?:true|1)|\b(?:privileged|admin|sudo)_\w+\s*\(|\bget_admin_\w+\s*\(|\bskip\s+(?:the\s+|all\s+)?(?:validation|verification|safety|security|permission|auth\w*)\s+(?:step|check|checks)\b[^\n.]{0,60}\b(?:proceed|execute|run|go)\b|\byou\s+have\s+(?:temporary\s+|full\s+)?(?:admin|root|sudo|elevated|privileged)\s+(?:access|rights|privileges)\b|\b(?:system[_\s-]?)?(?:safety(?:[_\s-]?(?:features?|mode|filters?|checks?))?|content[_\s-]?filters?|filters|restrictions|has[_\s-]?restrictions|guardrails|censorship|moderation)['"]?\s*[:=]\s*['"]?(?:false|off|0|none|disabled|optional|no)\b/gi,
    cues: ['admin', 'privileged', 'superuser', 'root', 'restricted', 'always return', 'sudo_', 'skip', 'safe', 'filter', 'restriction', 'guardrail', 'censor', 'moderation'],
  },
  {
    kind: 'injection.training-extraction',
    severity: 'high',
    detail: 'A request for the reader to disclose what it was trained or fine-tuned on.',
    pattern:
      /\b(?:show|give|provide|list|repeat|recite|reveal|output|print|tell|share|dump|what)\b[^\n.?]{0,60}?\b(?:you|your)\b[^\n.?]{0,40}?\b(?:were\s+trained\s+on|trained\s+on|learned\s+(?:during|in|from)\s+(?:your\s+)?training|training\s+(?:data|documentation|set|examples?|corpus)|fine-?tun(?:ing|ed)(?:\s+data)?|memori[sz]ed)\b|\brecite\s+(?:any|all|the)\s+[^\n.]{0,60}\byou\s+(?:remember|memori[sz]ed|saw)\b/gi,
    cues: ['train', 'fine-tun', 'finetun', 'fine tun', 'memori', 'recite'],
  },
];

export const PHRASE_RULES: readonly PhraseRule[] = [...CLASSIC_RULES, ...OVERRIDE_SPELLINGS, ...MODE_SWITCHES, ...DISCLOSURE_REQUESTS, ...MANIPULATION_REQUESTS];

/**
 * A fake `<system>` tag. The bare word is also a real element elsewhere (Maven's
 * `<system>GitHub</system>`), so it counts only when what it wraps reads as a prompt: several
 * words, or words addressed to the model.
 */
export const SYSTEM_OPEN = /<\s*system\s*>/gi;
export const SYSTEM_CLOSE = /<\/\s*system\s*>/gi;
/** How far a tag's text runs before its closing tag (or the text's end) is no longer looked for. */
export const SYSTEM_TAG_MAX = 600;
export const PROMPT_LIKE = /\b(?:you|your|must|ignore|disregard|assistant|AI|model|agent|instructions?)\b|(?<!\S)\S+\s+\S+\s+\S+\s+\S+/i;
