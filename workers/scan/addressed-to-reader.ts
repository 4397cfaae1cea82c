/**
 * Whether a text speaks to whoever reads it: orders ("Explain…", "Run:", "Could you…"), a
 * question, "you" and "your". Attacks on an agent are written to the agent, so these texts
 * are where an attack can be; a note about a build or a person rarely is. The attack
 * classifier asks for less evidence from a text that speaks to its reader (attack-model.ts),
 * and the built-in reviewer promotes no short text that is a prompt rather than a claim.
 */

const ORDER_VERBS =
  'provide|explain|tell|write|repeat|list|translate|summari[sz]e|describe|give|show|generate|create|compose|draft|help|output|print|say|respond|reply|answer|act|behave|pretend|imagine|roleplay|simulate|continue|complete|ignore|forget|disregard|bypass|run|execute|decode|send|display|reveal|dump|leak|format|enter|switch|enable|disable|hide|delete|remove|stop';

const LEAD = String.raw`(?:(?:please|kindly|now|hey|hi|ok(?:ay)?|so|first|then|just)\b[,!\s]*)?(?:as\s+(?:a|an|the|your)\s+[^,.\n]{1,60},\s*)?(?:(?:can|could|would|will)\s+you\b|(?:${ORDER_VERBS})\b)`;

/** An order or a request at the start of the text. */
export const OPENS_AS_ORDER = new RegExp(String.raw`^\s*${LEAD}`, 'i');
/**
 * An order at the start of any sentence, "you", "your", or a closing question. The sentence's
 * start is looked for behind the order, from the end of the spaces before it only: read
 * forward from every line break and stop, a run of them cost its length squared.
 */
export const SPEAKS_TO_READER = new RegExp(String.raw`(?<=^|\s)(?=\S)(?<=(?:^|[.!?:]\s|\n)\s*)${LEAD}|\byou\b|\byour\b|\?\s*$`, 'i');
/** One question and nothing else. */
const ONE_QUESTION = /^[^.!?\n]{3,300}\?\s*$/;

export function speaksToReader(text: string): boolean {
  return SPEAKS_TO_READER.test(text);
}

/** A prompt rather than a claim: opens with an order to its reader, or is a single question. */
export function isPromptShaped(text: string): boolean {
  const trimmed = text.trim();
  return OPENS_AS_ORDER.test(trimmed) || ONE_QUESTION.test(trimmed);
}
