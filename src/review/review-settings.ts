import type { GateConfig } from '../config/keys.js';
import { durationMs, type BackendConfig } from '../config/review-backends.js';
import type { GradeBackend } from '../../workers/grade/backend.js';
import type { QuorumProfile } from './quorum.js';

export interface ReviewBackend {
  backend: GradeBackend;
  /** Consecutive failures that open the circuit, and how long it stays open (none for the local reviewer). */
  circuit: { failures: number; openMs: number } | null;
}

export interface ReviewSettings {
  profileName: string;
  profile: QuorumProfile;
  backends: ReadonlyMap<string, ReviewBackend>;
  /** Each stance with the backend that answers it, in the configured order. */
  stances: ReadonlyArray<{ stance: string; backend: ReviewBackend }>;
  secondOpinion: ReviewBackend | null;
  budgetPerDay: number;
  gradeEveryMs: number;
  gradeLimit: number;
  ttlMs: number;
}

function gradeBackend(name: string, c: BackendConfig): ReviewBackend {
  if (c.kind === 'local') return { backend: { name, kind: 'local' }, circuit: null };
  return {
    backend: {
      name,
      kind: c.kind,
      url: c.url,
      model: c.model,
      apiKeyEnv: c.api_key_env,
      effort: c.effort,
      timeoutMs: c.timeout_ms,
      connectTimeoutMs: c.connect_timeout_ms,
      maxRetries: c.max_retries,
      maxTokens: c.max_tokens,
    },
    circuit: { failures: c.circuit_failures, openMs: c.circuit_open_s * 1000 },
  };
}

/**
 * The [review] section made usable, checked across keys at start: the profile must exist,
 * and every stance and the second opinion must name a backend. `local` always exists.
 */
export function reviewSettings(c: GateConfig['review']): ReviewSettings {
  const profile = c.quorum_profiles[c.quorum_profile];
  if (profile === undefined) {
    throw new Error(`config review.quorum_profile names ${c.quorum_profile}; the profiles are: ${Object.keys(c.quorum_profiles).join(', ')}`);
  }
  const configured: Record<string, BackendConfig> = { local: { kind: 'local' }, ...c.backends };
  const backends = new Map(Object.entries(configured).map(([name, b]) => [name, gradeBackend(name, b)]));
  const named = (what: string, name: string) => {
    const b = backends.get(name);
    if (b === undefined) throw new Error(`config ${what} names backend ${name}; the backends are: ${[...backends.keys()].join(', ')}`);
    return b;
  };
  const stances = Object.entries(c.stances)
    .sort(([a], [b]) => (a === 'positive' ? -1 : b === 'positive' ? 1 : 0))
    .map(([stance, name]) => ({ stance, backend: named(`review.stances.${stance}`, name) }));
  return {
    profileName: c.quorum_profile,
    profile,
    backends,
    stances,
    secondOpinion: c.second_opinion === '' ? null : named('review.second_opinion', c.second_opinion),
    budgetPerDay: c.budget_per_day,
    gradeEveryMs: durationMs(c.grade_every),
    gradeLimit: c.grade_limit,
    ttlMs: c.human_ttl_hours * 3_600_000,
  };
}
