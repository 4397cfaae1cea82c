import { z } from 'zod';
import { ROLE_TYPES } from './crew-sheet.js';
import { isSpaceName } from './names.js';

export const RUNNER_HELLO_FORMAT = 'gate.runner-hello/1';

/** Why a runner could not use a setting (`refused[].code`, docs/protocol.md#gvrunner_hello). */
export const REFUSAL_CODES = [
  'not_found',
  'no_mcp_json',
  'not_the_plugin',
  'missing',
  'not_writable',
  'inside_home',
  'inside_workdir',
  'not_a_git_checkout',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export const MODEL_EFFORTS = ['low', 'medium', 'high'] as const;

/** Printable: no control or format character (tabs and newlines included). */
const printable = (min: number, max: number) =>
  z.string().min(min).max(max).regex(/^[^\p{C}]*$/u, 'printable characters only');

const hex32 = z.string().regex(/^[0-9a-f]{32}$/, 'an instance is 32 lower-case hex characters');
const semver = z.string().regex(/^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/, 'MAJOR.MINOR.PATCH');
const version = z.string().max(64).regex(/^([0-9A-Za-z][0-9A-Za-z.+_-]*)?$/, 'a version string or empty');
/** A default-provider word or an endpoint host, lower case: no scheme, path, port or credential can pass. */
const hostName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, 'a provider word or an endpoint host in lower case, without scheme, path, port or token');
const path = printable(0, 4096);
const count = (max: number) => z.number().int().min(0).max(max);
const slot = z.string().max(200).regex(/^[^/]+\/[^/]+\/[1-9]\d?$/, 'a slot is <space>/<role>/<n>');

export const modelChoice = z.strictObject({ model: printable(1, 128), effort: z.enum(MODEL_EFFORTS).optional() });

/** Models keyed by role type; at most one per type, so at most five. */
export const modelsByType = z.strictObject(Object.fromEntries(ROLE_TYPES.map((t) => [t, modelChoice.optional()])) as Record<(typeof ROLE_TYPES)[number], z.ZodOptional<typeof modelChoice>>);

/**
 * `gate.runner-hello/1` (docs/protocol.md#gvrunner_hello): every field required, each checked by
 * its rule; the first violation is refused naming its path in data.field.
 */
export const runnerHelloBody = z.strictObject({
  format: z.literal(RUNNER_HELLO_FORMAT),
  instance: hex32,
  runner: semver,
  harness: version,
  host: printable(1, 64),
  backend: hostName,
  models: modelsByType,
  models_floor: z.boolean(),
  capacity: z.strictObject({ crews: z.number().int().min(1).max(16), members: z.number().int().min(1).max(64) }),
  recorded: z.strictObject({ version: count(Number.MAX_SAFE_INTEGER), ok: z.boolean() }),
  budget: z.strictObject({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day YYYY-MM-DD'),
    spent: count(Number.MAX_SAFE_INTEGER),
    of: count(Number.MAX_SAFE_INTEGER),
  }),
  serving: z
    .array(
      z.strictObject({
        space: z.string().refine(isSpaceName, 'a space name'),
        running: count(64),
        holds: z.array(slot).max(64),
      }),
    )
    .max(16),
  facts: z.strictObject({
    node: version,
    claude: z.strictObject({ path, found: z.boolean() }),
    plugin: z.strictObject({ path, mcp: z.boolean() }),
    workdir: z.strictObject({ path, writable: z.boolean() }),
    git: version,
    home: path,
  }),
  settings_version: count(Number.MAX_SAFE_INTEGER),
  refused: z.array(z.strictObject({ field: printable(1, 64), code: z.enum(REFUSAL_CODES) })).max(16),
  token: z.strictObject({ version: count(Number.MAX_SAFE_INTEGER), held: z.boolean() }),
});

export type RunnerHello = z.infer<typeof runnerHelloBody>;
