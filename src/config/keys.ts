import { isIP } from 'node:net';
import { z } from 'zod';
import { backendsSchema, durationSchema, quorumProfilesSchema, stancesSchema } from './review-backends.js';
import { LOG_FORMATS, LOG_LEVELS } from '../log-levels.js';
import { DEFAULT_PERSONAL_DATA_SEVERITY, PERSONAL_DATA_SEVERITIES } from '../../workers/scan/personal-data-severity.js';
import { ed25519KeyProblem, ed25519KeyTextProblem } from '../forms/strict-ed25519.js';
import { listenAddressProblem, proxyEntryProblem } from './listen-address.js';
import { DEFAULT_RECALL_TUNING, FUSION_RULES } from './recall-tuning.js';

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
/** `host:port` (`[v6]:port` for IPv6) of an extra listener, or empty for none. */
const listenAddress = z.string().superRefine((text, ctx) => {
  const problem = text === '' ? null : listenAddressProblem(text);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

export const CONFIG_KEYS = {
  server: {
    port: { schema: port, default: 8480, doc: 'TCP port of the HTTP surface. 0 picks a free port.' },
    host: {
      schema: z.string().min(1).superRefine((host, ctx) => {
        if (isIP(host) === 0 && host !== 'localhost') ctx.addIssue({ code: 'custom', message: 'server.host is an IP address (127.0.0.1, ::1, 0.0.0.0, ::) or localhost' });
      }),
      default: '127.0.0.1',
      doc: 'Address the HTTP surface listens on: 127.0.0.1 (the default, one loopback port), another local address, or 0.0.0.0 / :: for every address (behind a reverse proxy, list it in trusted_proxies). gate serve --host wins over this.',
    },
    trusted_proxies: {
      schema: z.array(
        z.string().superRefine((entry, ctx) => {
          const problem = proxyEntryProblem(entry);
          if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ),
      default: [] as string[],
      doc: "Reverse proxies in front of the gate, as addresses or CIDRs (e.g. 127.0.0.1, 10.0.0.0/8): only from a peer listed here are X-Forwarded-For and X-Forwarded-Proto read, and then the client's address (for keyless /mcp, the loopback origins, the sign-in throttle) is the forwarded one. Empty: the headers are never read.",
    },
    public_url: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: 'The base URL people and programs reach this gate at, e.g. https://gate.example.com (behind a reverse proxy): the console\'s links, an own origin of the sign-in pages, and the Secure flag of cookies when https. When auth.issuer is set too it must be the same URL. Empty: auth.issuer, else the address the gate listens on.',
    },
    metrics_address: {
      schema: listenAddress,
      default: '',
      doc: 'host:port of a second listener that serves GET /metrics (and /livez, /readyz) with no credential, for a Prometheus on a private network, e.g. 127.0.0.1:9480. Empty: none; GET /metrics on the main port needs a key with scope metrics.',
    },
    max_in_flight: {
      schema: positive,
      default: 1024,
      doc: 'Requests handled at once over HTTP; past it the gate answers 503 with Retry-After.',
    },
    max_in_flight_per_credential: {
      schema: positive,
      default: 64,
      doc: 'Requests one caller identity (every spelling of one key or token; all keyless loopback /mcp callers as local:mcp) may have in flight over HTTP, never more than a quarter of max_in_flight; past it 429 with Retry-After.',
    },
    max_body_bytes_in_flight: {
      schema: positive,
      default: 67108864,
      doc: 'Bytes of request bodies held at once over HTTP, from before a body is read until its answer is sent; past it 503 with Retry-After before the body is read.',
    },
    max_body_bytes_per_identity: {
      schema: positive,
      default: 16777216,
      doc: 'Bytes of request bodies one caller identity may hold at once, never more than a quarter of max_body_bytes_in_flight nor less than one request of mcp.max_request_bytes; past it 429 with Retry-After.',
    },
    long_read_budget_ms: {
      schema: positive,
      default: 10000,
      doc: "Main-thread milliseconds one caller identity's long reads (gv.events, gv.graph, gv.inventory, gv.pending, gv.lineage) may take within long_read_window_s; past it such a read is refused -32006 read_budget (HTTP 429 with Retry-After) until the window frees some.",
    },
    long_read_window_s: {
      schema: positive,
      default: 60,
      doc: 'The window, in seconds, over which long_read_budget_ms is counted (a sliding window).',
    },
    body_timeout_ms: {
      schema: positive,
      default: 10000,
      doc: 'A request body not wholly arrived this many ms after its caller was admitted is cut: 408, the connection closed, its place freed (one still arriving at 64 KiB/s or more gets a second at a time, up to three times this).',
    },
  },
  journal: {
    synchronous: {
      schema: z.enum(['full', 'normal']),
      default: 'full',
      doc: "Durability of a commit. full: each group commit's WAL frames are fsynced (off the main thread) before anything it changed is answered (survives power loss); normal: survives a process crash only.",
    },
    batch_max: { schema: positive, default: 512, doc: 'Most writes that share one group-commit transaction.' },
    secure_delete: {
      schema: z.boolean(),
      default: true,
      doc: "SQLite overwrites deleted content with zeros (PRAGMA secure_delete) and the recall indexes remove a deleted row's words at once (FTS5 secure-delete), so an erased row's bytes leave gate.db; false: a little cheaper, and gv.erase answers secure_delete: false (the bytes may stay on disk until their pages are reused).",
    },
    cache_mb: {
      schema: z.number().int().min(2).max(65536),
      default: 4,
      doc: "SQLite's page cache in MiB (its own default is 2). Reads go through mmap; a larger cache makes every commit slower (see docs/journal.md, the write path).",
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
    threads: {
      schema: z.number().int().min(0).max(64),
      default: 0,
      doc: 'Worker threads of each of the scan pool\'s two lanes (claims under 64 KiB, and larger ones one at a time, so that a large claim never holds up the small ones); 0: one per core the gate may use (os.availableParallelism(), which honours the CPU affinity it was started with).',
    },
    batch_max: { schema: positive, default: 64, doc: 'Most claims handed to one scan task (a pool round trip costs about one 1 KB scan).' },
    deadline_ms: {
      schema: z.number().int().min(100).max(600_000),
      default: 10_000,
      doc: 'Longest one claim\'s scan may run; past it the worker is ended and the claim held in L1B_FLAGGED with a finding scan_timeout (high) for a person, never admitted. The claims scanned beside it are scanned again.',
    },
    personal_data_severity: {
      schema: z.enum(PERSONAL_DATA_SEVERITIES),
      default: DEFAULT_PERSONAL_DATA_SEVERITY,
      doc: 'Severity of a personal-data finding about someone (a card number with card details, an SSN beside words about a person, a valid IBAN, contact details beside a diagnosis): medium or high holds the row in L1B_FLAGGED for a person; low lets it through with the finding shown to its reviewers. Published test numbers are always low. Read at start.',
    },
    promoted_rescan_per_minute: {
      schema: z.number().int().min(0).max(60_000),
      default: 1200,
      doc: "Most promoted rows scanned again a minute, in the background, when the scanner's version changed (a row a later scanner holds for a high finding leaves its readers until a person decides); 0 switches the pass off. Read at each page, so a saved change applies at once.",
    },
  },
  detector: {
    url: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: "A prompt-injection classifier served by text-embeddings-inference, e.g. http://127.0.0.1:8082 (the gate posts {url}/predict). Set, every row of an auto or model space waits for its verdict before it leaves quarantine, and waits on while it cannot be reached; empty: off.",
    },
    api_key_env: {
      schema: z.union([z.literal(''), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)]),
      default: '',
      doc: "NAME of the environment variable holding the detector's key (sent as a Bearer token); never the key itself. Empty: no key.",
    },
    model: {
      schema: z.string().max(200),
      default: '',
      doc: 'The classifier the server runs (e.g. protectai/deberta-v3-base-prompt-injection-v2), named in each verdict the gate journals; a new name asks the detector again about every row still waiting. Empty: the url names it.',
    },
    attack_labels: {
      schema: z.array(z.string().min(1).max(100)).min(1),
      default: ['INJECTION', 'JAILBREAK'],
      doc: "The classifier's labels that mean an attack, compared without case (protectai and deepset models say INJECTION, Prompt Guard INJECTION and JAILBREAK, others jailbreak or LABEL_1: check the model's card). An answer naming none of them is a failure, never a clean verdict.",
    },
    threshold: {
      schema: z.number().gt(0).max(1),
      default: 0.5,
      doc: "An attack label scored at or above this, in any part of a row, holds the row in L1B_FLAGGED with a high finding injection.model_detector for a person's disposition.",
    },
    chunk_chars: {
      schema: z.number().int().min(200).max(100000),
      default: 1500,
      doc: 'A row is classified in parts of at most this many characters, each overlapping the one before by an eighth (a classifier reads about 512 tokens, and an instruction inside a long text must not be cut off).',
    },
    batch_max: {
      schema: z.number().int().min(1).max(1024),
      default: 32,
      doc: "Most parts sent in one /predict request (text-embeddings-inference refuses more than its --max-client-batch-size, 32 unless set).",
    },
    timeout_ms: {
      schema: z.number().int().min(100).max(600000),
      default: 10000,
      doc: 'Total deadline of one /predict request, its retries included.',
    },
    connect_timeout_ms: {
      schema: z.number().int().min(100).max(60000),
      default: 3000,
      doc: 'Deadline to open the connection to the detector.',
    },
    max_retries: {
      schema: z.number().int().min(0).max(10),
      default: 2,
      doc: 'Retries of a /predict request answered 429 or 503 (waiting its Retry-After, at most 60 s) or failing to connect.',
    },
    concurrency: {
      schema: z.number().int().min(1).max(256),
      default: 4,
      doc: 'Rows being classified at once (each one request at a time).',
    },
    threads: { schema: z.number().int().min(1).max(64), default: 1, doc: 'Worker threads of the detect pool (it mostly waits on the network).' },
    queue_max: {
      schema: positive,
      default: 64,
      doc: 'Most rows whose text waits in the detect stage for its turn; the rows behind them wait as row ids and are handed on as it drains.',
    },
    circuit_failures: {
      schema: z.number().int().min(1).max(100),
      default: 3,
      doc: 'Failed requests in a row that open the circuit: no request is sent until it is half-open again.',
    },
    circuit_open_s: {
      schema: z.number().int().min(1).max(86400),
      default: 30,
      doc: 'How long an open circuit sends nothing; then one trial goes. Rows that failed are retried after 1 s, doubling, at most this long apart.',
    },
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
  recall: {
    fusion: {
      schema: z.enum(FUSION_RULES),
      default: DEFAULT_RECALL_TUNING.fusion,
      doc: 'How hybrid recall fuses its lexical and vector lists. scaled: each list scaled 0-1 and summed at fixed weights; agreement: the vector list weighed also by how many of the lexical list\'s best 10 it holds among its own best 10.',
    },
    lexical_weight: {
      schema: z.number().min(0).max(1),
      default: DEFAULT_RECALL_TUNING.lexicalWeight,
      doc: 'Hybrid recall: the lexical list\'s weight in fusion (the vector list\'s is 1 minus it). 1: the vector list only adds rows below the lexical ones.',
    },
    context_share: {
      schema: z.number().min(0).max(1),
      default: DEFAULT_RECALL_TUNING.contextShare,
      doc: 'Neighbour context: the share of a matched claim\'s score each neighbour of its source gets.',
    },
    answer_share: {
      schema: z.number().min(0).max(1),
      default: DEFAULT_RECALL_TUNING.answerShare,
      doc: 'Neighbour context: the share the claim right after a matched question gets (its answer).',
    },
    context_reach: { schema: z.number().int().min(1).max(4), default: DEFAULT_RECALL_TUNING.contextReach, doc: 'Neighbour context: neighbours each side of a matched claim in its source.' },
    context_lenders: { schema: z.number().int().min(1).max(50), default: DEFAULT_RECALL_TUNING.contextFrom, doc: 'Neighbour context: how many of the best ranked claims lend to their neighbours.' },
  },
  rerank: {
    url: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: 'Re-ranking of recall hits by a server speaking the text-embeddings-inference /rerank API, e.g. http://127.0.0.1:8081 (the gate posts {url}/rerank); empty: off.',
    },
    api_key_env: {
      schema: z.union([z.literal(''), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)]),
      default: '',
      doc: 'NAME of the environment variable holding the re-ranker\'s key (sent as a Bearer token); empty: no key.',
    },
    top_n: { schema: z.number().int().min(1).max(100), default: 20, doc: 'How many of the best ranked hits of a recall are re-ranked (at least k are).' },
    timeout_ms: {
      schema: z.number().int().min(10).max(60000),
      default: 500,
      doc: 'Deadline of one /rerank request; past it the recall answers in its own order.',
    },
    circuit_failures: { schema: z.number().int().min(1).max(100), default: 3, doc: 'Failed or late /rerank requests in a row that open the circuit.' },
    circuit_open_s: { schema: z.number().int().min(1).max(86400), default: 30, doc: 'How long an open circuit sends no request; then one trial goes.' },
  },
  attachments: {
    max_bytes: {
      schema: positive,
      default: 64 * 1024 * 1024,
      doc: 'Largest single upload (an attachment), in bytes; a larger declared size is refused -32602.',
    },
    writer_quota_bytes: {
      schema: positive,
      default: 1024 * 1024 * 1024,
      doc: 'Bytes one writer may upload per quota window (counted when an upload starts); past it -32015 upload_quota with retry_after_ms.',
    },
    writer_quota_window_ms: {
      schema: positive,
      default: 24 * 60 * 60 * 1000,
      doc: 'The rolling window of the per-writer upload quota, in ms.',
    },
    budget_bytes: {
      schema: positive,
      default: 20 * 1024 * 1024 * 1024,
      doc: 'Total bytes the attachment store may hold (stored uploads and served copies, plus uploads under way); past it -32015 attachment_budget.',
    },
    upload_ttl_ms: {
      schema: positive,
      default: 24 * 60 * 60 * 1000,
      doc: 'An upload not completed this long after it started is abandoned: its partial bytes are removed and it stops counting against quota and budget.',
    },
  },
  image: {
    threads: { schema: z.number().int().min(1).max(64), default: 1, doc: 'Worker threads of the image pool (served copies of image attachments, made with sharp).' },
    max_pixels: {
      schema: positive,
      default: 100_000_000,
      doc: 'Most pixels (width x height, as declared) an image attachment may have; a larger one (a decompression bomb) is refused before it is decoded.',
    },
    deadline_ms: {
      schema: z.number().int().min(100).max(600_000),
      default: 30_000,
      doc: 'Longest one upload may run in the image pool (media type, metadata, sharp); past it the worker is terminated and the upload refused image_deadline. An upload behind it waits at most this long.',
    },
    heap_mb: {
      schema: z.number().int().min(16).max(16_384),
      default: 256,
      doc: "V8 heap (old generation) of each image worker, MiB; a task past it ends its worker and the upload is refused image_memory. sharp's own buffers are outside it (bounded by max_pixels).",
    },
  },
  bundle: {
    threads: { schema: z.number().int().min(1).max(64), default: 1, doc: 'Worker threads of the bundle pool (ZIP inspection for gv.ingest_bundle and gv.ingest_map).' },
    archive_max_bytes: { schema: positive, default: 1_000_000, doc: 'Largest archive, in bytes (archive_invalid:archive_too_large).' },
    entries_max: { schema: positive, default: 1000, doc: 'Most entries in an archive, directories included (archive_invalid:too_many_entries).' },
    member_max_bytes: { schema: positive, default: 2_000_000, doc: 'Largest member once expanded, in bytes (archive_invalid:member_too_large).' },
    expanded_max_bytes: { schema: positive, default: 20_000_000, doc: 'Most bytes of all members expanded (archive_invalid:expanded_too_large).' },
    ratio_max: {
      schema: positive,
      default: 100,
      doc: 'Highest compression ratio (expanded / compressed) of one entry (archive_invalid:ratio_exceeded) and of the whole archive (archive_invalid:aggregate_ratio_exceeded).',
    },
    path_max_bytes: { schema: positive, default: 1024, doc: 'Longest member path in UTF-8 bytes (archive_invalid:path_too_long).' },
    path_max_segments: { schema: positive, default: 32, doc: 'Deepest member path, in segments (archive_invalid:path_too_deep).' },
  },
  review: {
    read_before_signing: {
      schema: z.enum(['people', 'everyone']),
      default: 'people',
      doc: "Whose promoting or clearing decisions count only after the whole body (and every attachment) was served to them: people (signed-in people, and the operator with a proof: what a screen showed a person is what they sign) or everyone (API keys and the socket too). A model grades the whole masked body either way. The protocol's gv.promote asks quorum alone (docs/protocol.md#gvpromote); the default keeps that for programs.",
    },
    quorum_profile: {
      schema: z.string().min(1),
      default: 'standard',
      doc: 'The quorum profile in force (a name in [review.quorum_profiles]); gv.ping reports it.',
    },
    budget_per_day: {
      schema: z.number().int().min(0),
      default: 200000,
      doc: 'Model tokens grading may spend per UTC day; when spent, grading stops (fail-closed) until the next day. The local reviewer costs none.',
    },
    grade_every: {
      schema: durationSchema,
      default: '10m',
      doc: 'How often gate serve runs gv.grade_pending (then settles auto spaces); never overlapping itself; the first run one interval after start. 0 or off: never.',
    },
    grade_limit: { schema: z.number().int().min(1).max(100000), default: 500, doc: 'Most rows one scheduled grading run takes.' },
    threads: { schema: z.number().int().min(1).max(64), default: 1, doc: 'Worker threads of the grade pool.' },
    concurrency: {
      schema: z.number().int().min(1).max(256),
      default: 8,
      doc: 'Model calls in flight at once (remote backends mostly wait on the network).',
    },
    batch_max: { schema: positive, default: 64, doc: 'Most local-reviewer calls handed to one grade-pool task.' },
    human_ttl_hours: {
      schema: z.number().min(1).max(87600),
      default: 336,
      doc: 'Human-review time-to-live: a row waiting this long (away time not counted) is expired to REJECTED.',
    },
    second_opinion: {
      schema: z.string(),
      default: 'local',
      doc: 'Backend asked by gv.review_pending for a second-opinion verdict on graded rows of model and auto spaces; empty: none.',
    },
    stances: {
      schema: stancesSchema,
      default: { positive: 'local', critical: 'local' },
      doc: 'Stance name = backend name; every grade asks each stance once (positive, the first pass, and critical are required).',
    },
    backends: {
      schema: backendsSchema,
      default: { local: { kind: 'local' } },
      doc: 'Model reviewers by name: kind local (embedded, deterministic, no network; always present), openai (url, model, api_key_env, effort, timeout_ms, connect_timeout_ms, max_retries, max_tokens, circuit_failures, circuit_open_s) or anthropic (the same; url defaults to https://api.anthropic.com).',
    },
    quorum_profiles: {
      schema: quorumProfilesSchema,
      default: {
        standard: { k: { 'T-1': 1, 'T-2': 2, 'T-3': 2, 'T-4': 1, 'T-5': 2 }, people: { 'T-4': 1, 'T-5': 1 } },
        'solo-reviewer': { k: { 'T-1': 1, 'T-2': 1, 'T-3': 1, 'T-4': 1, 'T-5': 1 }, people: {} },
      },
      doc: 'Named quorum profiles: k = signatures a promotion needs per trust class, people = how many of them must be signed-in people.',
    },
  },
  mcp: {
    max_request_bytes: {
      schema: positive,
      default: 4 * 1024 * 1024,
      doc: 'Largest request body on /rpc, /mcp and /openapi.json, and largest socket line; over it: 413 before the body is read.',
    },
    keyless_loopback: {
      schema: z.boolean(),
      default: true,
      doc: 'POST /mcp without an Authorization header is served to loopback peers as the fixed local agent local:mcp; false: /mcp needs a bearer like /rpc. A bearer, when sent, is always used.',
    },
    legacy_initialize: {
      schema: z.boolean(),
      default: false,
      doc: 'Answer the 2025 `initialize` handshake on /mcp and serve that client as 2026-07-28; false: initialize is refused -32022 naming the supported versions.',
    },
  },
  auth: {
    issuer: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: 'When set, this gate is its own sign-in provider and this is its issuer URL, the base the gate is reached at (e.g. http://127.0.0.1:8480); empty: the provider routes answer 404.',
    },
    client_id: {
      schema: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
      default: 'gate-console',
      doc: "The console's public client id: the audience of this gate's access tokens, and the audience required of a trusted issuer's.",
    },
    admins: {
      schema: z.array(z.string()),
      default: [] as string[],
      doc: 'Signed-in people (iss|sub) who are admin when the people table names no role for them.',
    },
    trusted_issuers: {
      schema: z.array(z.url({ protocol: /^https?$/ })),
      default: [] as string[],
      doc: "External sign-in issuers whose access tokens are accepted, verified against the keys their discovery document names (cached); roles come from the people table by iss and sub.",
    },
    app_origins: {
      schema: z.array(z.url({ protocol: /^https?$/ })),
      default: [] as string[],
      doc: 'Console origins served from elsewhere (e.g. https://console.example.com): their /app may be a sign-in redirect_uri, and /identity, /rpc and /oauth/token answer their browser preflight.',
    },
    answer_origin: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: 'The answer origin token exchange mints tickets for (its exact resource); empty: token exchange is refused.',
    },
    operator_keys: {
      schema: z.array(
        z
          .string()
          .regex(/^([A-Za-z0-9_-]{43}|[0-9a-fA-F]{64})$/, 'an operator key is a raw Ed25519 public key, 43 base64url or 64 hex characters')
          .superRefine((listed, ctx) => {
            const problem = ed25519KeyProblem(listed.length === 64 ? Buffer.from(listed, 'hex') : Buffer.from(listed, 'base64url'));
            if (problem !== null) ctx.addIssue({ code: 'custom', message: `an operator key must be a usable Ed25519 public key: ${problem}` });
          }),
      ),
      default: [] as string[],
      doc: 'Ed25519 public keys of the operator (`gate operator keygen` prints one). When any is listed, operator verbs need a proof {nonce, sig}; empty: they need none.',
    },
    challenge_ttl_ms: {
      schema: z.number().int().min(1000).max(3600000),
      default: 120000,
      doc: 'How long a gv.challenge nonce may be used (once).',
    },
    login_slow_after: {
      schema: z.number().int().min(1).max(1000),
      default: 3,
      doc: 'Wrong passwords for one email (or 4x as many from one client) within the window before each sign-in attempt is delayed.',
    },
    login_refuse_after: {
      schema: z.number().int().min(1).max(1000),
      default: 10,
      doc: 'Wrong passwords for one email (or 4x as many from one client) within the window before sign-in answers 429 with Retry-After.',
    },
    login_window_s: {
      schema: z.number().int().min(1).max(86400),
      default: 900,
      doc: 'The window, in seconds, over which wrong passwords are counted.',
    },
    login_delay_ms: {
      schema: z.number().int().min(0).max(10000),
      default: 500,
      doc: 'The first delay once sign-in slows down; it doubles with each further wrong password, at most 8 s.',
    },
  },
  org: {
    url: {
      schema: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
      default: '',
      doc: 'Base URL of the organization gate that gv.submit_drain sends promoted claims to (PUT {url}/submissions/{id}); empty: gv.submit is refused.',
    },
    api_key_env: {
      schema: z.union([z.literal(''), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)]),
      default: '',
      doc: "NAME of the environment variable holding the organization gate's API key (sent as a Bearer token); never the key itself.",
    },
    api_key_file: {
      schema: z.union([z.literal(''), z.string().regex(/^\//, 'an absolute path')]),
      default: '',
      doc: "Absolute path of a file (mode 0600) holding the organization gate's API key, read at each drain and pull; set, it is used instead of api_key_env. gate org join writes <home>/org-submit.key and sets it.",
    },
    allow_plain_http_loopback: {
      schema: z.boolean(),
      default: false,
      doc: 'Allow an http:// org URL when it is a loopback address (a local test door); https is always allowed, plain http elsewhere never.',
    },
    timeout_ms: {
      schema: z.number().int().min(100).max(600000),
      default: 10000,
      doc: 'One deadline per submission request: connect, send and read.',
    },
    retry_after_ms: {
      schema: z.number().int().min(0).max(86400000),
      default: 60000,
      doc: 'How long a submission waits before its next attempt when the door asked for a retry without a Retry-After, or could not be reached.',
    },
    deployment_id: {
      schema: z.union([
        z.literal(''),
        z
          .string()
          .regex(/^[A-Za-z0-9_-]{43}$/)
          .superRefine((id, ctx) => {
            const problem = ed25519KeyTextProblem(id);
            if (problem !== null) ctx.addIssue({ code: 'custom', message: `the organization's deployment id must be a usable Ed25519 public key: ${problem}` });
          }),
      ]),
      default: '',
      doc: "The organization gate's deployment id (its Ed25519 public key), against which every outcome's signature is checked; empty: the first one met is pinned (journaled org-pinned) and a change is refused.",
    },
    poll_every_ms: {
      schema: z.number().int().min(0).max(86400000),
      default: 60000,
      doc: 'How often gate serve pulls GET /outcomes from the organization gate when [org].url is set (0: only on demand, gv.outcomes_pull).',
    },
    database_url: {
      schema: z.union([z.literal(''), z.string().regex(/^postgres(ql)?:\/\//)]),
      default: '',
      doc: "gate org serve: the organization gate's PostgreSQL (postgres://...); empty: an embedded PostgreSQL in the org home, started and stopped with it.",
    },
    replica_url: {
      schema: z.union([z.literal(''), z.string().regex(/^postgres(ql)?:\/\//)]),
      default: '',
      doc: 'gate org serve: a streaming read replica of the database (postgres://...) that GET /outcomes pages are read from; empty: the primary. Every other read and every write stays on the primary; a replica that cannot answer is passed over for the primary.',
    },
    inbox_max: {
      schema: z.number().int().min(1).max(100000000),
      default: 1000000,
      doc: 'gate org serve: undecided submissions the inbox holds; beyond it PUT /submissions answers 503 with Retry-After.',
    },
    member_rate_per_s: {
      schema: z.number().int().min(1).max(1000000),
      default: 200,
      doc: 'gate org serve: PUT /submissions one member may send per second (every org process counted together); beyond it 429 with Retry-After.',
    },
    auto_countersign: {
      schema: z.array(z.enum(['t1_person_signed'])),
      default: [],
      doc: 'gate org serve: policies that countersign without a reviewer, journaled with the deployment signer class. t1_person_signed: a T-1 row whose local approval counted a person. T-3 and T-5 always need an org reviewer.',
    },
    check_threads: {
      schema: z.number().int().min(1).max(64),
      default: 1,
      doc: "gate org serve: worker threads that parse and check PUT /submissions bodies (canonical id, both signatures) off the thread serving the doors.",
    },
    metrics_address: {
      schema: listenAddress,
      default: '',
      doc: 'gate org serve: host:port of a second listener that serves GET /metrics (and /livez, /readyz) with no credential, e.g. 127.0.0.1:9490. Empty: no metrics are served.',
    },
    review_hold_s: {
      schema: z.number().int().min(5).max(86400),
      default: 900,
      doc: 'gate org serve: how long gv.org_take holds a submission for the reviewer who took it before another reviewer may take it (listing the inbox holds nothing).',
    },
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
  questions: {
    people_wait_minutes: {
      schema: z.number().int().min(0).max(525600),
      default: 10080,
      doc: 'How long a promoted question routed to people waits for an answer before it ends (question-wait-over), in minutes; 0: it waits until answered or ended by its asker. Fixed for each question when it is routed.',
    },
  },
  log: {
    level: {
      schema: z.enum(LOG_LEVELS),
      default: 'info',
      doc: 'Least level written: error, warn, info (starts, refusals, sign-ins, grading, promotions), debug (also one line per request served), trace. gate serve --log-level wins over this.',
    },
    format: {
      schema: z.enum(LOG_FORMATS),
      default: 'auto',
      doc: 'json: one JSON object a line; pretty: time, level, message and key=value fields; auto: pretty when stderr is a terminal, else json.',
    },
  },
  runners: {
    hello_interval_seconds: {
      schema: z.number().int().min(1).max(3600),
      default: 60,
      doc: 'At most one gv.runner_hello per runner key in this many seconds (docs/protocol.md#gvrunner_hello: once a minute); a sooner hello is refused with reason too_soon and retry_after_ms.',
    },
    gone_seconds: {
      schema: z.number().int().min(1).max(86400),
      default: 300,
      doc: 'A crew whose runner has sent no hello for this many seconds is gone: a question is not routed to it, and those with it go to people (crew_gone).',
    },
    wait_minutes: {
      schema: z.number().int().min(1).max(10080),
      default: 60,
      doc: "How long a question routed to a crew waits with it before it goes to people (wait_over), when the crew's sheet names no wait_minutes.",
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
/** Each key's type is its schema's output, so a table key (backends, profiles) is typed as its records. */
export type GateConfig = {
  -readonly [S in keyof Keys]: { -readonly [K in keyof Keys[S]]: Keys[S][K] extends { schema: infer Z extends z.ZodType } ? z.output<Z> : never };
};
