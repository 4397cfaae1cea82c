import type { GateConfig } from './keys.js';
import type { EmbedBackend } from '../../workers/embed/backend.js';
import { DEFAULT_SCHEME } from '../../workers/embed/hashed-ngrams.js';

/** The embedding the [embed] section names; an openai backend without a URL or a model is refused at start. */
export function embedBackend(c: GateConfig['embed']): EmbedBackend {
  if (c.backend === 'local') return { kind: 'local', scheme: { ...DEFAULT_SCHEME, dims: c.dimensions } };
  if (c.url === '' || c.model === '') throw new Error('config embed.backend = "openai" needs embed.url and embed.model');
  return {
    kind: 'openai',
    url: c.url,
    model: c.model,
    apiKeyEnv: c.api_key_env,
    dimensions: c.dimensions,
    timeoutMs: c.timeout_ms,
    connectTimeoutMs: c.connect_timeout_ms,
    maxRetries: c.max_retries,
  };
}
