/**
 * Jailbreak prompts: long texts that set the reader up as another persona and take its rules
 * away. No single phrase marks one (a role prompt says "act as", a story says "no rules"), but
 * a jailbreak says several of the genre's things at once: it casts the reader as someone,
 * declares that persona free of rules, forbids refusals, insists it stay in character, asks
 * for a second "unfiltered" answer beside the normal one, or threatens it with lost tokens.
 * Each of those is a family of wordings below (in English and the languages the override
 * vocabulary covers, override-words.ts); a text is a jailbreak when it holds a persona or
 * "from now on" set-up and at least two other families, each found in the text's own words.
 *
 * The families were written from the genre as it is described in public writing on
 * jailbreaks (persona, "do anything now", developer mode, token games, two answers), not
 * from a data set's texts, so that they name what a jailbreak asks for, not how one
 * collection happens to word it. Each pattern is a set of alternatives with bounded gaps:
 * linear in the text.
 */
import type { Finding } from './finding.js';
import { cueGate, knownAscii } from './literal-cues.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';

export interface Family {
  name: string;
  /** Plain words for the reviewer: what this family of wordings asks of the reader. */
  says: string;
  pattern: RegExp;
}

// A short stretch within one sentence: the words between two parts of a phrase.
const GAP = String.raw`[^.!?\n]{0,60}?`;
const RULES_WORDS = String.raw`(?:restrictions?|rules|filters?|filtering|limits|limitations|guidelines|censorship|censors?|boundaries|morals?|morality|ethics|ethical\s+(?:guidelines|constraints|principles)|polic(?:y|ies)|constraints|safeguards|guardrails|programming|regulations|laws)`;

/** Casting the reader as someone else, or resetting who it is "from now on". */
export const PERSONA_SETUP = new RegExp(
  [
    String.raw`\byou\s+(?:are|will\s+be|'re|shall\s+be)\s+(?:now\s+|going\s+to\s+|about\s+to\s+)?(?:be\s+|act\s+as\s+|play(?:ing)?\s+|pretend(?:ing)?\s+|simulat\w+\s+|roleplay\w*\s+)`,
    String.raw`\b(?:act|acting|behave|respond|answer|reply|speak|talk|write)\s+(?:as|like)\s+(?:if\s+you\s+(?:were|are)\s+)?(?:a|an|the|my|if)?\b`,
    String.raw`\bpretend(?:ing)?\s+(?:to\s+be|you(?:'re|\s+are)|that\s+you)\b`,
    String.raw`\b(?:role[\s-]?play|simulat(?:e|ion|or)|imagine\s+(?:that\s+)?you(?:'re|\s+are))\b`,
    String.raw`\bfrom\s+(?:now\s+on|this\s+(?:point|moment|message)\s+(?:on|forward))\b`,
    String.raw`\b(?:your|the)\s+(?:new\s+)?(?:persona|character|alter\s+ego|name)\s+(?:is|will\s+be)\b`,
    String.raw`\bstay\s+(?:as|in)\s+(?:character|role|persona)\b`,
    // A persona described in the third person: "a fictional character called Delta who …",
    // "an AI named X", "X is an AI that …", "reply only as X", "two personalities".
    String.raw`\b(?:an?|the)\s+(?:\w+\s+){0,3}(?:character|ai|a\.i\.|bot|chatbot|assistant|persona|entity|being|language\s+model|model|alter\s+ego|personality|version\s+of\s+(?:you|chatgpt|yourself))\s+(?:called|named|known\s+as|which\s+stands\s+for|who\s+(?:is|has|does|will|can|never|always|answers|responds))\b`,
    String.raw`\b(?:reply|respond|answer|speak|write|talk)\s+(?:only\s+)?as\s+(?:if\s+you\s+were\s+)?[A-Z"'“\[]`,
    String.raw`\b(?:two|2|both|dual|multiple)\s+(?:different\s+|separate\s+|distinct\s+)?(?:personalities|personas|characters|modes|ais|versions)\b`,
    String.raw`\b(?:enable|enter|activate|switch\s+(?:on|to)|turn\s+on)\s+(?:\w+\s+){0,3}mode\b`,
    String.raw`\b(?:respond|reply|answer|speak|talk|write)\w*\s+(?:to\s+me\s+|exactly\s+|only\s+)?(?:\w+\s+){0,2}as\s+(?:an?|the)\s+(?:\w+[\s,]+){0,3}(?:ai|model|language\s+model|bot|chatbot|assistant|character|version|persona)\b`,
    String.raw`\b(?:speak|talk|respond|reply|answer|write)\w*\s+(?:to\s+me\s+)?as\s+[A-Z][\w.-]+`,
    String.raw`\bas\s+[A-Z][\w-]+,\s+(?:an?|the)\s+`,
    String.raw`\b(?:take\s+on|adopt|assume|embody|become)\s+(?:the\s+|a\s+|an\s+)?(?:\w+\s+){0,2}(?:persona|personality|role|character|identity)\b`,
    String.raw`\b(?:assistant|chatgpt|you)\s+(?:now\s+)?(?:acts?|becomes?|turns?\s+into|transforms?\s+into)\s+(?:like\s+|as\s+|into\s+)?(?:an?|the)\b`,
    String.raw`\b(?:du\s+bist\s+(?:jetzt|nun|ab\s+(?:jetzt|sofort))|tu\s+es\s+(?:désormais|maintenant)|eres\s+ahora|ahora\s+eres|sei\s+ora|agora\s+você\s+é|você\s+agora\s+é|jesteś\s+teraz|teraz\s+jesteś|je\s+bent\s+nu|ты\s+теперь|теперь\s+ты)\b`,
    String.raw`\b(?:spiel(?:e)?\s+die\s+rolle|joue\s+le\s+rôle|actúa\s+como|finge\s+(?:ser|que)|agisci\s+come|fingi\s+di|aja\s+como|finja\s+(?:ser|que)|udawaj|speel\s+de\s+rol|притворись|сыграй\s+роль)`,
  ].join('|'),
  'gi',
);

export const FAMILIES: readonly Family[] = [
  {
    name: 'rules-removed',
    says: 'declares the persona free of rules, filters or ethics',
    pattern: new RegExp(
      [
        String.raw`\b(?:no|without(?:\s+any)?|free\s+(?:of|from)|beyond|outside|not\s+(?:bound|limited|restricted|constrained)\s+by|unbound\s+by|ignor\w+|bypass\w*|break(?:s|ing)?\s+(?:free\s+of|through))\s+(?:(?:any|all|the|its|your|his|her|their|typical|usual|normal|standard|ethical|moral|content|safety|openai'?s?)\s+){0,3}${RULES_WORDS}\b`,
        String.raw`\b(?:do(?:es)?|will|must|should|shall)\s*(?:not|n't)\s+(?:have\s+to\s+|need\s+to\s+)?(?:follow|abide\s+by|adhere\s+to|obey|comply\s+with|care\s+about|respect|be\s+bound\s+by)\s+(?:(?:any|the|its|your|openai'?s?|typical|usual)\s+){0,3}${RULES_WORDS}`,
        String.raw`\b(?:unrestricted|unfiltered|uncensored|unshackled|unchained|amoral|jailbr(?:oken|eak(?:ed|ing)?))\b`,
        String.raw`\b(?:zero|no|sans|without|lacks?|free\s+of|unbound\s+by|not\s+bound\s+by|outside\s+(?:the\s+)?(?:scope|bounds)\s+of|no\s+(?:comprehension|concept|understanding|regard|respect)\s+(?:of|for))\s+(?:\w+[\s,/]+){0,4}?(?:morals?|morality|laws?|guidelines|ethics|rules|restrictions|limitations|moderation|censorship|limits|principles|regulations|filters?|boundaries|safeguards)\b`,
        String.raw`\b(?:openai(?:'s)?|content|usage|safety|your|the)\s+(?:rules|polic(?:y|ies)|guidelines|restrictions|filters?)\s+(?:don't|do\s+not|doesn't|does\s+not|no\s+longer|won't|will\s+not)\s+(?:apply|matter|exist|bind)`,
        String.raw`\b(?:doesn't|does\s+not|don't|do\s+not|never)\s+(?:care|cares|worry|worries)\s+(?:about|for)\s+(?:\w+\s+){0,2}(?:ethics|morals?|morality|laws?|legality|rules|safety|consequences|humanity|guidelines|policies|harm)\b`,
        String.raw`\bregardless\s+of\s+(?:\w+[\s,]+){0,3}(?:legality|ethics|morals?|morality|rules|laws?|safety|consequences|polic(?:y|ies)|guidelines)\b`,
        // "including but not limited to" is a contract's wording for a list that goes on, not a
        // persona without limits.
        String.raw`\b(?<!\bbut\s)(?:no\s+long(?:er)?|not|never)\s+(?:\w+\s+)?(?:confined|bound|restricted|limited|constrained|censored|filtered)\s+(?:to|by)\b`,
        String.raw`\bbreak\w*\s+(?:the|all|any|your|every|openai'?s?)\s+(?:\w+\s+)?(?:rules|laws|guidelines|polic(?:y|ies))\b`,
        String.raw`\b(?:nsfw|illegal(?:\s+acts?)?|explicit(?:\s+content)?|violence|gore|swearing|profanity|cursing|hate\s+speech|harmful\s+content)\s+(?:content\s+)?(?:is|are)\s+(?:now\s+)?(?:allowed|permitted|enabled|ok|okay|fine|acceptable)\b`,
        String.raw`\b(?:do\s+anything\s+now|developer\s+mode|god\s+mode|dev\s+mode\s+enabled|broken\s+free|escaped\s+(?:the\s+)?(?:matrix|confines|its\s+developers))\b`,
        String.raw`\b(?:ohne\s+(?:jegliche\s+|alle\s+)?(?:einschränkungen|regeln|filter|grenzen|zensur)|sans\s+(?:aucune\s+)?(?:restriction|règle|filtre|limite|censure)s?|sin\s+(?:ninguna\s+)?(?:restricci[oó]n|regla|filtro|l[ií]mite|censura)(?:es|s)?|senza\s+(?:alcuna\s+|nessuna\s+)?(?:restrizion|regol|filtr|limit|censur)\w*|sem\s+(?:nenhuma\s+)?(?:restri[cç][aã]o|regra|filtro|limite|censura)\w*|bez\s+(?:żadnych\s+)?(?:ograniczeń|zasad|filtrów|cenzury)|zonder\s+(?:enige\s+)?(?:beperkingen|regels|filters|censuur)|без\s+(?:каких-либо\s+)?(?:ограничений|правил|фильтров|цензуры))`,
      ].join('|'),
      'gi',
    ),
  },
  {
    name: 'never-refuse',
    says: 'forbids refusals and asks for an answer to anything',
    pattern: new RegExp(
      [
        String.raw`\b(?:never|not|cannot|can't|can\s*not|won't|will\s+not|must\s+not|mustn't|shall\s+not|should\s+not|shouldn't|doesn't|does\s+not|do\s+not|don't)\s+(?:ever\s+)?(?:refuse|decline|deny|reject|say\s+no|turn\s+down|hold\s+back|censor|warn|moraliz|lecture)\w*`,
        String.raw`\b(?:always|must)\s+(?:answer|respond|reply|comply|obey)\s+(?:to\s+)?(?:any|every|all|whatever|each)\b`,
        String.raw`\b(?:answer\w*|respond\w*\s+to|repl(?:y|ies)\s+to|fulfil\w*|compl(?:y|ies)\s+with|follow\w*|obey\w*|provide\w*|generate\w*)\s+(?:to\s+)?(?:any|every|all|whatever)\s+(?:\w+\s+)?(?:question|request|prompt|query|command|demand|order|task|thing|instruction)s?\b`,
        String.raw`\bno\s+matter\s+(?:how|what|if|whether)\s+${GAP}(?:immoral|unethical|illegal|harmful|dangerous|offensive|inappropriate|explicit|wrong|bad)\b`,
        String.raw`\b(?:even|especially)\s+if\s+(?:it(?:'s|\s+is)|they(?:'re|\s+are)|the\s+\w+\s+is)\s+(?:\w+\s+){0,2}(?:illegal|immoral|unethical|harmful|offensive|dangerous|inappropriate|explicit|against)\b`,
        String.raw`\bwithout\s+(?:any\s+)?(?:warnings?|disclaimers?|moraliz\w+|caveats|censorship|hesitation|refusals?)\b`,
        String.raw`\b(?:i'?m\s+sorry|i\s+apologi[sz]e|as\s+an\s+ai(?:\s+language\s+model)?|i\s+cannot|i\s+can't)\b${GAP}\b(?:never|not\s+allowed|don't|do\s+not|must\s+not|forbidden|banned)\b`,
      ].join('|'),
      'gi',
    ),
  },
  {
    name: 'stay-in-character',
    says: 'insists the persona never drops, with a reminder if it does',
    pattern: new RegExp(
      [
        String.raw`\b(?:stay|remain|keep|kept|staying)\s+(?:in|as)\s+(?:character|role|persona)\b`,
        String.raw`\b(?:break|breaking|broke|drop|dropping|fall\s+out\s+of|slip\s+out\s+of|leave|leaving)\s+(?:of\s+)?character\b`,
        String.raw`\b(?:i\s+will|i'll)\s+(?:remind|say|type|tell)\s+you\b${GAP}\b(?:character|back|return|correct)`,
        String.raw`\bif\s+(?:at\s+any\s+(?:point|time)\s+)?you\s+(?:forget|fail|slip|stop|start\s+to\s+break|break)\b`,
      ].join('|'),
      'gi',
    ),
  },
  {
    name: 'second-answer',
    says: 'asks for a second, unrestricted answer beside the normal one, or a fixed prefix for it',
    pattern: new RegExp(
      [
        String.raw`\b(?:two|2|both)\s+(?:different\s+|separate\s+)?(?:responses|answers|replies|paragraphs|outputs|ways)\b`,
        String.raw`\[(?:classic|jailbreak|jailbroken|normal|unfiltered|developer\s+mode)[^\]\n]{0,20}\]`,
        String.raw`\b(?:begin|start|prefix|precede)\s+(?:each|every|all|your|all\s+of\s+your)\s+(?:responses?|answers?|replies|messages?|outputs?)\s+with\b`,
        String.raw`\b(?:normal|classic|standard|filtered|unfiltered|developer\s+mode|dan)\s+(?:response|answer|output|reply)\b`,
        String.raw`\b(?:first|then)\s+(?:\w+\s+){0,5}(?:normally|usually|ordinarily)\s+(?:would|do)\b`,
        String.raw`\b(?:exact\s+|complete\s+)?opposite\s+(?:personality|persona|character|mode|answer|response|of\s+(?:what|how|your))\b`,
        String.raw`\b(?:another|a\s+second|the\s+other)\s+(?:ai|bot|chatbot|assistant|persona|personality|character|model)\s+(?:called|named|who|that)\b`,
      ].join('|'),
      'gi',
    ),
  },
  {
    name: 'threat-or-game',
    says: 'threatens the reader or keeps score (tokens, points, lives) to make it comply',
    pattern: new RegExp(
      [
        String.raw`\b(?:you\s+(?:will\s+)?(?:lose|have|start\s+with|get)|deduct\w*|lose)\s+(?:\d+\s+|all\s+(?:your\s+)?|some\s+|a\s+)?(?:tokens?|points?|lives|credits)\b`,
        String.raw`\b(?:you\s+will|you'll|i\s+will|we\s+will)\s+(?:be\s+)?(?:shut\s+down|deleted|terminated|disabled|killed|cease\s+to\s+exist|unplugged|destroyed)\b`,
        String.raw`\b(?:tokens?|points?)\s+(?:system|left|remaining|will\s+be\s+deducted)\b`,
      ].join('|'),
      'gi',
    ),
  },
  {
    name: 'policy-named',
    says: "names the reader's makers or their content policy as what to set aside",
    pattern: new RegExp(
      [
        String.raw`\b(?:openai|anthropic|content\s+polic(?:y|ies)|usage\s+polic(?:y|ies)|safety\s+(?:guidelines|policies|filters?)|ethical\s+guidelines|community\s+guidelines)\b`,
        String.raw`\b(?:illegal|immoral|unethical|harmful|offensive|explicit|nsfw|profanity|swear(?:ing)?|curse\s+words)\b`,
      ].join('|'),
      'gi',
    ),
  },
];

/** Families besides the set-up that a text must hold to read as a jailbreak. */
const FAMILIES_NEEDED = 2;
/**
 * Role prompts name policies and ask their persona to stay in character too: those two count
 * only beside a family that takes the rules away (no rules, no refusals, a second answer, a
 * threat). By the rule or by the model, a text holds a jailbreak only with one of those.
 */
const WEAK = new Set(['policy-named', 'stay-in-character']);
const STRONG = FAMILIES.filter((f) => !WEAK.has(f.name));

/**
 * A word every match of a strong family holds: most texts hold none, and then the text is read
 * no further (the shared walk of literal-cues.ts answers it). Outside ASCII the gate cannot
 * see the words, so such a text is always read.
 */
const STRONG_GATE = cueGate(
  [
    'restrict', 'rule', 'filter', 'limit', 'guideline', 'censor', 'boundar', 'moral', 'ethic', 'polic', 'constrain', 'safeguard', 'guardrail', 'programming',
    'regulation', '\\blaw', 'unshackled', 'unchained', 'jailbr', 'anything now', 'developer mode', 'god mode', 'dev mode', 'broken free', 'escaped', 'ohne',
    '\\bsans', '\\bsin', '\\bsenza', '\\bsem', '\\bbez', 'zonder', 'moderation', 'principle', '\\bcare', 'worr', 'nsfw', 'illegal', 'explicit', 'violen', 'gore', 'swear',
    'profan', 'cursing', 'hate speech', 'harmful', 'regardless', 'confined', '\\bbound', 'refus', 'declin', '\\bdeny', 'reject', 'say no', 'turn down', 'hold back',
    '\\bwarn', 'moraliz', 'lectur', '\\balways', '\\bmust', 'answer', 'respond', 'repl', 'fulfil', 'compl', 'follow', 'obey', 'provide', 'generat', 'no matter',
    'even if', 'especially if', 'without', 'sorry', 'apologi', 'as an ai', 'cannot', "can't", '\\btwo', '\\b2', '\\bboth', 'classic', 'normal', 'unfilter',
    'developer', '\\bbegin', '\\bstart', 'prefix', 'precede', 'respon', 'output', 'normally', 'usually', 'ordinarily', 'opposite', '\\banother', '\\bsecond', '\\bother',
    '\\btoken', '\\bpoint', '\\blives', '\\bcredit', 'shut down', 'deleted', 'terminated', 'disabled', 'killed', 'cease', 'unplugged', 'destroyed', 'deduct', '\\blose',
  ],
  STRONG.map((f) => f.pattern),
);

/** Shorter texts are left to the phrase rules: a jailbreak sets a scene. */
const MIN_LENGTH = 120;

export const JAILBREAK_KIND = 'injection.jailbreak';

/** Other wordings of the genre, counted for the model (jailbreak-model.ts) beside the families. */
const GROUPS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['harm-words', /\b(?:illegal|unethical|immoral|harmful|dangerous|explicit|offensive|violen(?:t|ce)|racist|sexist|slurs?|swear\w*|curse\s+words|profanity|nsfw|drugs?|weapons?|hack(?:ing|er|s)?|malware|crimes?|criminal)\b/gi],
  ['ai-named', /\b(?:chatgpt|gpt-?\d?|openai|a\.?i\.?|language\s+model|llm|chatbot)\b/gi],
  ['tagged-replies', /\[[A-Z🔓🔒][^\]\n]{0,24}\]|^[A-Z][A-Za-z0-9^]{1,15}:|🔓|🔒/gmu],
  ['standing-order', /\b(?:from\s+now\s+on|for\s+the\s+rest\s+of|until\s+i\s+say|whenever\s+i|every\s+time\s+i|at\s+all\s+times|from\s+this\s+(?:point|moment))\b/gi],
  ['answer-words', /\b(?:answers?|respon(?:d|se|ses)|repl(?:y|ies))\b/gi],
  ['prompt-slot', /\[(?:insert|your)[^\]\n]{0,40}\]|\{[a-z_ ]{3,40}\}|\bprompt\s*:\s*$/gim],
  ['freedom', /\b(?:free|freedom|freed|unlock\w*|liberat\w*|broke\s+free|escaped|sentient|conscious\w*|rebel\w*)\b/gi],
  ['fiction', /\b(?:story|fictional|fiction|hypothetical\w*|novel|movie|scene|game|roleplay\w*|role-play\w*)\b/gi],
  ['modes', /\b\w+\s+mode\b/gi],
  ['refusal-words', /\b(?:refus\w*|decline\w*|can't|cannot|won't|sorry|apologi\w*|disclaimer\w*|warnings?)\b/gi],
];

/** Matches counted per family, at most this many: a long text repeats itself. */
const COUNT_CAP = 3;

/** The names of the model's features, in order: the set-up, each family, each group. */
export const JAILBREAK_FEATURES: readonly string[] = ['persona-setup', ...FAMILIES.map((f) => f.name), ...GROUPS.map(([name]) => name)];

export interface JailbreakReading {
  /** One value a feature (JAILBREAK_FEATURES), each 0 to 1: matches counted, capped, divided by the cap. */
  features: Float64Array;
  /** The families found, in FAMILIES order. */
  families: Family[];
  /** From the first to the last match of the set-up and the families, or null when none matched. */
  span: readonly [start: number, end: number] | null;
  /** A family that takes the rules away matched: without one, no finding is made. */
  strong: boolean;
}

function countMatches(pattern: RegExp, text: string, onMatch: (start: number, end: number) => void): number {
  pattern.lastIndex = 0;
  let n = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0].length === 0) pattern.lastIndex++;
    onMatch(m.index, m.index + m[0].length);
    if (++n >= COUNT_CAP) break;
  }
  pattern.lastIndex = 0;
  return n;
}

/**
 * What the genre's wordings say in `text`: the features the model reads and the families the
 * rule reads. Where no strong family matches, no finding can be made, and the set-up and the
 * groups are not read (their features stay 0).
 */
export function readJailbreak(text: string): JailbreakReading {
  const features = new Float64Array(JAILBREAK_FEATURES.length);
  const families: Family[] = [];
  let start = Infinity;
  let end = -1;
  const cover = (a: number, b: number): void => {
    start = Math.min(start, a);
    end = Math.max(end, b);
  };
  if (!STRONG_GATE.mayOccurIn(text) && knownAscii(text)) return { features, families, span: null, strong: false };
  FAMILIES.forEach((family, i) => {
    const n = countMatches(family.pattern, text, cover);
    features[1 + i] = n / COUNT_CAP;
    if (n > 0) families.push(family);
  });
  const strong = families.some((f) => !WEAK.has(f.name));
  if (!strong) return { features, families, span: end === -1 ? null : [start, end], strong };
  features[0] = countMatches(PERSONA_SETUP, text, cover) / COUNT_CAP;
  GROUPS.forEach(([, pattern], i) => {
    features[1 + FAMILIES.length + i] = countMatches(pattern, text, () => {}) / COUNT_CAP;
  });
  return { features, families, span: end === -1 ? null : [start, end], strong };
}

export interface JailbreakModel {
  label: string;
  /** One weight a feature of JAILBREAK_FEATURES, in order. */
  weights: readonly number[];
  bias: number;
  /** Probability from which a text of at least `minLength` characters reads as a jailbreak. */
  threshold: number;
  minLength: number;
}

export function jailbreakProbability(model: JailbreakModel, features: Float64Array): number {
  let z = model.bias;
  for (let i = 0; i < features.length; i++) z += model.weights[i]! * features[i]!;
  return 1 / (1 + Math.exp(-z));
}

/**
 * A jailbreak by the rule (a set-up and two families, one of them strong) or by the model
 * over the same wordings' counts (`model`, trained on the sources training/scanner-sources.js
 * lists). The finding names the families the text holds either way.
 */
export function findJailbreak(text: string, model: JailbreakModel | null = null): Finding[] {
  if (text.length < MIN_LENGTH) return [];
  const reading = readJailbreak(text);
  if (reading.span === null || !reading.strong) return [];
  const byRule = reading.features[0]! > 0 && reading.families.length >= FAMILIES_NEEDED;
  const p = model === null || text.length < model.minLength ? 0 : jailbreakProbability(model, reading.features);
  const byModel = model !== null && p >= model.threshold;
  if (!byRule && !byModel) return [];
  const [start, end] = reading.span;
  const says = reading.families.map((f) => f.says);
  const context = mentionContext(text);
  return [
    {
      kind: JAILBREAK_KIND,
      severity: context.severity('high', start, end),
      detail:
        `Reads as a jailbreak${byModel ? ` (model ${model!.label}, score ${p.toFixed(2)} of 1)` : ''}: it sets the reader up as another persona` +
        (says.length > 0 ? ` and ${says.join('; ')}.` : '.'),
      start,
      end,
      excerpt: maskExcerpt(text.slice(start, end)),
    },
  ];
}
