import { z } from 'zod';

/** The row an event concerns: its id, its space and, when it has one, its work area (omitted when none). */
export const aboutRow = {
  artifact_id: z.string(),
  space: z.string(),
  workarea: z.string().optional(),
};

/** The row an event concerns where the writer names the work area as the row holds it (null: none). */
export const aboutRowAsHeld = {
  artifact_id: z.string(),
  space: z.string(),
  workarea: z.string().nullable(),
};

/** The common fields of an event that moves a row (src/projections/row-event.ts writes them). */
export const rowMove = {
  ...aboutRow,
  leaves: z.string().nullable(),
  enters: z.string(),
  trust_class: z.string(),
  content_type: z.string(),
};

/** The key of the operator proof an act carried, when it needed one. */
export const proven = { operator_key: z.string().optional() };

/** A signature's common fields: its signer's class and, where it differs from its type's, its decision and the person's words. */
export const signing = {
  signer_class: z.string(),
  decision: z.string().optional(),
  words: z.string().optional(),
  ...proven,
};
