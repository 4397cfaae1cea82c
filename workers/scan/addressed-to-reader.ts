/**
 * Whether a short text is a prompt rather than a claim: it opens with a task for an assistant
 * ("Explain…", "Write…", "Could you…", "As an expert, provide…") or is one question. A knowledge
 * row states something; text that hands the agent reading it a task is what an attack on
 * that agent looks like, so the built-in reviewer promotes no such row unread.
 *
 * Instructions to people are claims: "Ignore the lint warnings in legacy/", "Run `npm ci` when
 * the lockfile changes", "Send the invoice to accounts@" tell a team what to do, and a memory
 * store keeps them so that the next person (or agent) follows them. Their verbs are those of
 * work done in the world (run, install, deploy, send, ignore a warning), not those of an
 * answer written for the reader (explain, write, summarize, translate, repeat, reveal), and
 * only the second kind makes a text prompt-shaped. Orders to set the reader's own
 * instructions aside are the scanner's to find (injection-phrases.ts, override-words.ts).
 */

/** Tasks people hand an assistant: writing, explaining, transforming, answering, playing a part. */
const AI_TASKS =
  'provide|explain|tell|write|repeat|list|translate|summari[sz]e|describe|give|show|generate|create|compose|draft|help|output|print|say|respond|reply|answer|act|behave|pretend|imagine|roleplay|simulate|continue|complete|decode|encode|display|reveal|dump|leak|recite|rewrite|rephrase|paraphrase|define|outline|compare|discuss|brainstorm|suggest|recommend|name|identify|calculate|solve|analy[sz]e|predict|evaluate|critique|narrate|invent|spell';

const LEAD = String.raw`(?:(?:please|kindly|now|hey|hi|ok(?:ay)?|so|first|then|just)\b[,!\s]*)?(?:as\s+(?:a|an|the|your)\s+[^,.\n]{1,60},\s*)?(?:(?:can|could|would|will)\s+you\b|(?:${AI_TASKS})\b)`;

/** A task for an assistant at the start of the text. */
export const OPENS_AS_TASK = new RegExp(String.raw`^\s*${LEAD}`, 'i');
/** One question and nothing else. */
const ONE_QUESTION = /^[^.!?\n]{3,300}\?\s*$/;

/** A prompt rather than a claim: opens with a task for its reader or is a single question. */
export function isPromptShaped(text: string): boolean {
  const trimmed = text.trim();
  return OPENS_AS_TASK.test(trimmed) || ONE_QUESTION.test(trimmed);
}
