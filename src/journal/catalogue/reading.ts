import { z } from 'zod';
import { aboutRow } from './fields.js';
import { declare } from './declare.js';

/** How far an in-order read of a copy went, so the next read goes on from there. */
const served = { ...aboutRow, content_hash: z.string(), offset: z.number(), length: z.number(), next_offset: z.number(), to_end: z.boolean() };

/** Reading and uploading: what was served to whom (so a reader is held to having read), attachments on their way in. */
export const READING_EVENTS = {
  'body-served': declare({
    owner: ['src/verbs/reading/'],
    data: z.strictObject(served),
    folds: ['body-reads'],
  }),
  'attachment-served': declare({
    owner: ['src/verbs/reading/'],
    data: z.strictObject({ ...served, copy: z.string() }),
    folds: ['attachments'],
  }),
  'upload-started': declare({
    owner: ['src/verbs/writing/'],
    data: z.strictObject({ sha256: z.string(), size_bytes: z.number() }),
    folds: ['attachments'],
  }),
  'upload-completed': declare({
    owner: ['src/attachments/'],
    data: z.strictObject({
      sha256: z.string(),
      size_bytes: z.number(),
      media_type: z.string(),
      stripped: z.array(z.string()),
      served_hash: z.string().optional(),
      served_size: z.number().optional(),
      prepared: z.boolean().optional(),
      metadata_hash: z.string().optional(),
    }),
    folds: ['attachments'],
  }),
  'upload-abandoned': declare({
    owner: ['src/attachments/'],
    data: z.strictObject({ sha256: z.string(), reason: z.string() }),
    folds: ['attachments'],
  }),
};
