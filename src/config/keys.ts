import { z } from 'zod';

/**
 * Every configuration key, once. The TOML template written on first start, the
 * `GATE_<SECTION>_<KEY>` environment overrides, validation and `gate config` all
 * derive from this table, so no key can be documented in one place and missing in another.
 */
export interface KeySpec {
  schema: z.ZodType;
  default: unknown;
  doc: string;
}

const port = z.number().int().min(0).max(65535);
const positive = z.number().int().min(1);

export const CONFIG_KEYS = {
  server: {
    port: { schema: port, default: 8480, doc: 'TCP port of the HTTP surface; bound to 127.0.0.1 only. 0 picks a free port.' },
    max_in_flight: {
      schema: positive,
      default: 1024,
      doc: 'Requests handled at once over HTTP; past it the gate answers 503 with Retry-After.',
    },
  },
  journal: {
    synchronous: {
      schema: z.enum(['full', 'normal']),
      default: 'full',
      doc: 'SQLite synchronous mode. full: each group commit is fsynced (survives power loss); normal: survives a process crash only.',
    },
    batch_max: { schema: positive, default: 512, doc: 'Most writes that share one group-commit transaction.' },
    cache_mb: {
      schema: z.number().int().min(2).max(65536),
      default: 64,
      doc: "SQLite's page cache in MiB (its own default is 2).",
    },
    mmap_mb: {
      schema: z.number().int().min(0).max(1048576),
      default: 2048,
      doc: 'Bytes of gate.db read through mmap, in MiB (0: off); recall reads FTS pages without a copy per read.',
    },
    commit_window_ms: {
      schema: z.number().min(0).max(100),
      default: 2,
      doc: 'Under load, commits are at least this many ms apart so one fsync carries many writes; an idle journal commits at once.',
    },
  },
  quarantine: {
    max_depth: {
      schema: positive,
      default: 100000,
      doc: 'Most held rows (L0, L1, L1B) at once; past it an ingest is refused -32006 with retry_after_ms.',
    },
    scan_queue: { schema: positive, default: 4096, doc: 'Most claims waiting for the scanner; past it an ingest is refused -32006.' },
    retry_after_ms: {
      schema: positive,
      default: 30000,
      doc: 'The retry_after_ms named when the quarantine itself is full (held rows drain only by review).',
    },
  },
  scan: {
    threads: { schema: z.number().int().min(1).max(64), default: 1, doc: 'Worker threads of the scan pool.' },
    batch_max: { schema: positive, default: 64, doc: 'Most claims handed to one scan task (a pool round trip costs about one 1 KB scan).' },
  },
  embed: {
    backend: {
      schema: z.enum(['local', 'openai']),
      default: 'local',
      doc: 'Embedding of vector recall. local: hashed word and character n-grams, computed in the embed pool, no network and no weights; openai: POST {url}/embeddings of an OpenAI-compatible server.',
    },
    url: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: 'openai backend: base URL of the OpenAI-compatible API, e.g. http://127.0.0.1:8080/v1 (the gate posts to {url}/embeddings).',
    },
    model: { schema: z.string(), default: '', doc: 'openai backend: the model name sent with each request; part of the label stored vectors carry.' },
    api_key_env: {
      schema: z.union([z.literal(''), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)]),
      default: '',
      doc: 'openai backend: NAME of the environment variable holding the API key (sent as a Bearer token); the key itself never goes in this file. Empty: no key.',
    },
    dimensions: {
      schema: z.number().int().min(8).max(4096),
      default: 512,
      doc: 'Length of every vector. local: hash buckets; openai: sent as `dimensions` and required of every answer. Changing it re-embeds every row at the next start.',
    },
    timeout_ms: {
      schema: z.number().int().min(100).max(600000),
      default: 10000,
      doc: 'openai backend: total deadline of one embeddings request (a retry gets a fresh one).',
    },
    connect_timeout_ms: {
      schema: z.number().int().min(100).max(60000),
      default: 3000,
      doc: 'openai backend: deadline to open the connection to the embeddings server.',
    },
    max_retries: {
      schema: z.number().int().min(0).max(10),
      default: 3,
      doc: 'openai backend: retries of a request answered 429 or 503 (waiting its Retry-After, at most 60 s) or failing to connect.',
    },
    batch_max: { schema: positive, default: 64, doc: 'Most texts embedded in one pool task (and one embeddings request).' },
    threads: { schema: z.number().int().min(1).max(64), default: 1, doc: 'Worker threads of the embed pool.' },
  },
  mcp: {
    max_request_bytes: {
      schema: positive,
      default: 4 * 1024 * 1024,
      doc: 'Largest request body on /rpc, /mcp and /openapi.json, and largest socket line; over it: 413 before the body is read.',
    },
  },
  auth: {
    issuer: {
      schema: z.string(),
      default: '',
      doc: 'When set, this gate is its own sign-in provider with this issuer URL (the sign-in issue); empty: provider routes answer 404.',
    },
    admins: { schema: z.array(z.string()), default: [], doc: 'Subjects (iss|sub) of signed-in people who are admin when the people table names no role.' },
    trusted_issuers: { schema: z.array(z.string()), default: [], doc: 'External sign-in issuers whose tokens are accepted (the sign-in issue).' },
  },
  access: {
    open_spaces: {
      schema: z.array(z.string()),
      default: ['main'],
      doc: 'Spaces where every caller holds read and contribute without a grant; other spaces need gv.grant.',
    },
  },
  spaces: {
    main_policy: {
      schema: z.enum(['human', 'model', 'auto']),
      default: 'human',
      doc: 'Review policy of the main space, created on first start.',
    },
  },
  deployment: {
    mode: {
      schema: z.enum(['development', 'production']),
      default: 'production',
      doc: 'Reported by gv.describe; development lets a single developer do what production reserves for a second person.',
    },
  },
} as const satisfies Record<string, Record<string, KeySpec>>;

type Keys = typeof CONFIG_KEYS;
export type GateConfig = {
  -readonly [S in keyof Keys]: { -readonly [K in keyof Keys[S]]: Keys[S][K] extends { default: infer D } ? Widen<D> : never };
};
type Widen<T> = T extends number ? number : T extends string ? string : T extends readonly (infer E)[] ? Widen<E>[] : T;
