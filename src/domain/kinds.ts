/** Closed vocabularies of a row (docs/protocol.md#artifacts-kinds-and-trust-classes): kinds, content types and trust classes. */

export const KINDS = [
  'memory',
  'derived_fact',
  'summary',
  'steering',
  'skill',
  'prompt_template',
  'imported_document',
  'question',
  'answer',
] as const;
export type Kind = (typeof KINDS)[number];

/** Evidence classes: entered as RECORDED at T-1 and never graded. */
export const RECORDED_CLASSES = [
  'bundle_manifest',
  'event',
  'generation',
  'message',
  'message_part',
  'scratchpad_state',
  'session',
  'state_snapshot',
  'tool_call',
  'trace',
  'usage_record',
  'verdict',
] as const;
export type RecordedClass = (typeof RECORDED_CLASSES)[number];

export const PRODUCER_KINDS = ['agent', 'hook', 'person', 'tool'] as const;
export type ProducerKind = (typeof PRODUCER_KINDS)[number];

export const TRUST_CLASSES = ['T-1', 'T-2', 'T-3', 'T-4', 'T-5'] as const;
export type TrustClass = (typeof TRUST_CLASSES)[number];

const KIND_TRUST: Record<Kind, TrustClass> = {
  memory: 'T-1',
  derived_fact: 'T-1',
  summary: 'T-1',
  steering: 'T-1',
  question: 'T-1',
  answer: 'T-1',
  skill: 'T-2',
  prompt_template: 'T-2',
  imported_document: 'T-4',
};

export function trustClassOfKind(kind: Kind): TrustClass {
  return KIND_TRUST[kind];
}

/** The scanner may only raise a class, never lower it: the stricter of two wins. */
export function stricterClass(a: TrustClass, b: TrustClass): TrustClass {
  return TRUST_CLASSES.indexOf(a) >= TRUST_CLASSES.indexOf(b) ? a : b;
}

export const isKind = (v: string): v is Kind => (KINDS as readonly string[]).includes(v);
export const isRecordedClass = (v: string): v is RecordedClass => (RECORDED_CLASSES as readonly string[]).includes(v);
