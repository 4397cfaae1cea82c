import { z } from 'zod';

const count = z.number().int().min(0);

/**
 * The type of every field a served event may carry beyond the common ones (docs/protocol.md#events:
 * identifiers, closed words and counts). served-event.ts says which event types carry which;
 * a field it names must be declared here, so gv.why's and gate.why's schema cannot miss one.
 */
export const SERVED_FIELD_TYPES = {
  trust_class: z.string(),
  content_type: z.string(),
  provisional: z.boolean(),
  kind: z.string().nullable(),
  size_bytes: count,
  findings_count: count,
  policy: z.string(),
  identity: z.string(),
  target: z.string(),
  group_id: z.string(),
  signer_class: z.string(),
  operation: z.string(),
  self_signed: z.boolean(),
  reason: z.string(),
  pinned: z.boolean(),
  audience: z.string().nullable(),
  lift: z.boolean(),
  lowered: z.boolean(),
  decision: z.string(),
  stance: z.string().nullable(),
  model_label: z.string(),
  rubric: z.string(),
  category: z.string(),
  reopens: count,
  comment: z.string(),
  weight: z.number(),
  parents: count,
  children: count,
  promoted: count,
  superseded: count,
  evidence: count,
  asked: count,
  route: z.string(),
  crew: z.string(),
  wait_minutes: count,
  from: z.string(),
  to: z.string(),
} as const;

export type ServedField = keyof typeof SERVED_FIELD_TYPES;
