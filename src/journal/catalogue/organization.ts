import { z } from 'zod';
import { rowMove } from './fields.js';
import { declare } from './declare.js';

/** A second authority's outcome on a row (src/submission/outcome-pull.ts): the org's signed line as it came. */
const outcome = {
  ...rowMove,
  signer_class: z.string(),
  decision: z.string(),
  org_deployment_id: z.string(),
  org_seq: z.unknown(),
  submission_id: z.string(),
  authority_class: z.string(),
  outcome: z.record(z.string(), z.unknown()),
};

/** What one send to the organization came to (src/submission/org-sends.ts). */
const sent = {
  artifact_id: z.string(),
  space: z.string(),
  outcome: z.string(),
  status: z.number().nullable(),
  attempt: z.number(),
  retry_after_ms: z.number().optional(),
  org_state: z.string().optional(),
  error: z.string().optional(),
};

/** The organization gate: submissions sent to it, its outcomes, its pinned key. */
export const ORGANIZATION_EVENTS = {
  'submission-queued': declare({
    owner: ['src/verbs/organization/'],
    data: z.strictObject({ artifact_id: z.string(), space: z.string(), submission_id: z.string() }),
    folds: ['submissions'],
  }),
  'submission-outcome': declare({
    owner: ['src/submission/'],
    data: z.strictObject({ ...sent, submission_id: z.string() }),
    folds: ['submissions'],
  }),
  'retraction-outcome': declare({
    owner: ['src/submission/'],
    data: z.strictObject({ ...sent, retraction_id: z.string() }),
    folds: ['submissions'],
  }),
  countersign: declare({
    owner: ['src/submission/'],
    data: z.strictObject({ ...outcome, provisional: z.literal(false) }),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: [] },
  }),
  refuse: declare({
    owner: ['src/submission/'],
    data: z.strictObject(outcome),
    folds: ['artifacts', 'review'],
    served: { object: 'row', fields: [] },
  }),
  'org-pinned': declare({
    owner: ['src/submission/'],
    data: z.strictObject({ org_deployment_id: z.string(), url: z.string() }),
    folds: [],
  }),
};

