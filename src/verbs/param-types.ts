import { z } from 'zod';
import { isNameSegment, workareaProblem } from '../domain/names.js';
import { PRODUCER_KINDS } from '../domain/kinds.js';

const HEX64 = /^(sha256:)?[0-9a-f]{64}$/;

/** C4: an artifact operand with or without `sha256:`; anything else refused before the handler runs. */
export const artifactIdParam = z
  .string()
  .regex(HEX64, 'must be sha256:<64 lower-case hex> or the 64 hex alone')
  .transform((s) => (s.startsWith('sha256:') ? s : `sha256:${s}`));

export const spaceParam = z.string().min(1).max(64);

export const workareaParam = z.string().superRefine((value, ctx) => {
  const problem = workareaProblem(value);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

export const producerParam = z.strictObject({
  name: z.string().refine(isNameSegment, 'a producer name is one work-area segment'),
  kind: z.enum(PRODUCER_KINDS),
});

export const ADDRESS_KINDS = [...PRODUCER_KINDS, 'none'] as const;

export const addressedToParam = z
  .strictObject({
    names: z.array(z.string().refine(isNameSegment, 'each name is a producer name')).max(64).optional(),
    kinds: z.array(z.enum(ADDRESS_KINDS)).max(5).optional(),
  })
  .refine((a) => (a.names?.length ?? 0) + (a.kinds?.length ?? 0) > 0, 'addressed_to needs at least one nonempty list')
  .refine((a) => new Set(a.kinds ?? []).size === (a.kinds ?? []).length, 'addressed_to.kinds repeats a kind');

export const limitParam = (max: number) => z.number().int().min(1).max(max);
