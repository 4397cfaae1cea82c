import { z } from 'zod';

/**
 * The `[review.backends.NAME]` tables: where a model reviewer is asked. `local` is the
 * embedded deterministic reviewer and always exists; `openai` is any OpenAI-compatible
 * chat-completions endpoint (hosted, llama.cpp, vLLM, Ollama) asked for JSON-schema
 * structured output; `anthropic` is the messages API, asked through a forced tool call.
 */
const envName = z.union([z.literal(''), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the NAME of an environment variable')]);

const remote = {
  model: z.string().min(1),
  api_key_env: envName.default(''),
  effort: z.enum(['', 'minimal', 'low', 'medium', 'high']).default(''),
  timeout_ms: z.number().int().min(100).max(600_000).default(60_000),
  connect_timeout_ms: z.number().int().min(100).max(60_000).default(5_000),
  max_retries: z.number().int().min(0).max(10).default(3),
  max_tokens: z.number().int().min(64).max(32_000).default(1_024),
  circuit_failures: z.number().int().min(1).max(1_000).default(5),
  circuit_open_s: z.number().int().min(1).max(86_400).default(60),
};

const httpUrl = z.url({ protocol: /^https?$/ });

export const backendSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('local') }),
  z.strictObject({ kind: z.literal('openai'), url: httpUrl, ...remote }),
  z.strictObject({ kind: z.literal('anthropic'), url: httpUrl.default('https://api.anthropic.com'), ...remote }),
]);
export type BackendConfig = z.output<typeof backendSchema>;

export const backendsSchema = z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a backend name is 1-64 of A-Z a-z 0-9 _ -'), backendSchema);

/** Stance name to backend name; a grade asks each stance once. */
export const stancesSchema = z
  .record(z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a stance name is 1-32 of a-z 0-9 -'), z.string().min(1))
  .refine((s) => 'positive' in s && 'critical' in s, 'stances must include positive (the first pass) and critical');

export const TRUST_CLASS_KEYS = ['T-1', 'T-2', 'T-3', 'T-4', 'T-5'] as const;
const perClass = (min: number) =>
  z.strictObject(Object.fromEntries(TRUST_CLASS_KEYS.map((c) => [c, z.number().int().min(min).max(16).optional()])) as Record<
    (typeof TRUST_CLASS_KEYS)[number],
    z.ZodOptional<z.ZodNumber>
  >);

/** A quorum profile: signatures needed per trust class (k) and how many of them must be people's. */
export const quorumProfileSchema = z.strictObject({
  k: perClass(1),
  people: perClass(0).default({}),
});
export const quorumProfilesSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), quorumProfileSchema);

/** A duration: digits and a unit (ms, s, m, h), or 0 / off for never. */
export const durationSchema = z.string().regex(/^(0|off|\d+(ms|s|m|h))$/, 'a duration like 30s, 10m or 1h, or 0/off');

export function durationMs(text: string): number {
  if (text === '0' || text === 'off') return 0;
  const m = /^(\d+)(ms|s|m|h)$/.exec(text)!;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * unit;
}
