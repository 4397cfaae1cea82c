import { z } from 'zod';
import type { NamedSource } from '../../access/bans.js';
import type { Caller } from '../../access/caller.js';
import { invalidParams } from '../../gate-error.js';
import type { EnvelopeAttachment } from '../../projections/attachments.js';
import { contentHashParam } from './upload.js';
import type { House } from '../house.js';

export const ATTACHMENTS_PER_CLAIM = 4;

export const attachmentsParam = z
  .array(
    z.strictObject({
      sha256: contentHashParam,
      name: z.string().min(1).max(255).optional(),
      source_uri: z.string().min(1).max(4096).optional(),
    }),
  )
  .max(ATTACHMENTS_PER_CLAIM);

type Given = z.output<typeof attachmentsParam>;

/** The sources a list of attachments names, each by its parameter: a ban checks every one. */
export const attachmentSources = (given: Given | undefined): NamedSource[] =>
  (given ?? []).flatMap((a, i) => (a.source_uri === undefined ? [] : [{ field: `attachments.${i}.source_uri`, uri: a.source_uri }]));

/** Classes that never carry attachments (docs/protocol.md#gvingest): what steers agents, and evidence. */
const NO_ATTACHMENTS = new Set(['steering', 'skill', 'prompt_template']);

/** Whether a row of this kind (null: a recorded class) may carry attachments. */
export const takesAttachments = (kind: string | null): boolean => kind !== null && !NO_ATTACHMENTS.has(kind);

/**
 * The envelope (v2) entries of a claim's attachments: each a completed upload by the
 * caller, named once, with what the upload's preparation found recorded beside it so the
 * envelope alone says what the row carries.
 */
export function envelopeAttachments(house: Pick<House, 'store'>, caller: Caller, given: Given, kind: string | null): EnvelopeAttachment[] {
  if (given.length === 0) return [];
  if (!takesAttachments(kind)) {
    throw invalidParams(`attachments are not for ${kind ?? 'recorded'} rows`, { field: 'attachments' });
  }
  const seen = new Set<string>();
  return given.map((a, i) => {
    if (seen.has(a.sha256)) throw invalidParams(`attachments names ${a.sha256} twice`, { field: `attachments.${i}.sha256` });
    seen.add(a.sha256);
    const upload = house.store.attachments.upload(caller.identity, a.sha256);
    if (upload?.state !== 'completed') {
      throw invalidParams(`attachment ${a.sha256.slice(0, 23)} is not an upload this caller completed`, { field: `attachments.${i}.sha256` });
    }
    return {
      sha256: a.sha256,
      ...(a.name === undefined ? {} : { name: a.name }),
      ...(a.source_uri === undefined ? {} : { source_uri: a.source_uri }),
      media_type: upload.media_type!,
      size_bytes: upload.size_bytes,
      served_hash: upload.served_hash,
      served_size: upload.served_size,
      stripped: JSON.parse(upload.stripped ?? '[]') as string[],
      prepared: upload.prepared === null ? null : upload.prepared === 1,
      metadata_hash: upload.metadata_hash,
    };
  });
}
