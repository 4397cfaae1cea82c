/**
 * gv.backend_check's probe: one GET of the backend's model list, which proves the server
 * answers and whether it takes the credential; then, when it does, one small grading call
 * of a harmless probe claim, which is the only way to know that the backend answers in the
 * structured form grading needs (a server may list a model and still ignore the schema).
 * That call spends a few tokens, reported as `cost_tokens`.
 */
import { z } from 'zod';
import { LOCAL_MODEL_LABEL, type GradeBackend } from './backend.js';
import type { BackendCheck } from './grade-task.js';
import { HttpCallError, callModelServer } from '../http/model-http.js';
import { remoteGrade } from './model-call.js';

/** The claim the probe grades: short, plain and harmless, so any working reviewer answers it. */
const PROBE_CLAIM = {
  artifact_id: 'sha256:0000000000000000000000000000000000000000000000000000000000000000',
  text: 'Probe from gv.backend_check: the build server runs Node 20.',
  kind: 'memory',
  content_type: 'text/plain',
  trust_class: 'T-1',
  source_uri: 'gate://backend-check',
  findings: [],
  parents: [],
  nearest_promoted: null,
};

const modelList = z.object({ data: z.array(z.looseObject({ id: z.string() })) });

export async function checkBackend(b: GradeBackend): Promise<BackendCheck> {
  if (b.kind === 'local') {
    return {
      reachable: true,
      credential: 'absent',
      model: LOCAL_MODEL_LABEL,
      effort: null,
      structured_outputs: true,
      cost_tokens: 0,
      words: 'the embedded deterministic reviewer: no network, no key, no tokens spent',
    };
  }
  const effort = b.effort === '' ? null : b.effort;
  // Unknown until a grading call came back in the structured form (below); false until then.
  const base = { model: b.model, effort, structured_outputs: false, cost_tokens: 0 };
  const key = b.apiKeyEnv === '' ? undefined : process.env[b.apiKeyEnv];
  const headers: Record<string, string> = {};
  if (b.kind === 'openai' && key) headers['authorization'] = `Bearer ${key}`;
  if (b.kind === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (key) headers['x-api-key'] = key;
  }
  const url = `${b.url.replace(/\/+$/, '')}${b.kind === 'openai' ? '/models' : '/v1/models'}`;
  const credential = key ? 'present' : 'absent';
  let answer;
  try {
    answer = await callModelServer({ ...b, maxRetries: 0 }, url, { method: 'GET', headers, maxBytes: 1 << 20 });
  } catch (error) {
    const why = error instanceof HttpCallError ? error.message : String(error);
    return { ...base, reachable: false, credential, words: `${url} did not answer: ${why}` };
  }
  if (answer.status === 401 || answer.status === 403) {
    return { ...base, reachable: true, credential: `refused: HTTP ${answer.status}`, words: `${url} answered but refused the credential` };
  }
  const listed = answer.status === 200 ? modelList.safeParse(safeJson(answer.text)) : null;
  const known = listed?.success ? listed.data.data.some((m) => m.id === b.model) : null;
  const words =
    answer.status !== 200
      ? `${url} answered HTTP ${answer.status}`
      : known === false
        ? `${url} answered, but its model list does not name ${b.model}`
        : `${url} answered${known ? ` and lists ${b.model}` : ''}`;
  const credentialWords = b.apiKeyEnv !== '' && !key ? `absent: ${b.apiKeyEnv} is not set` : credential;
  if (b.apiKeyEnv !== '' && !key) return { ...base, reachable: true, credential: credentialWords, words: `${words}; no grading call was tried without the key` };
  // openai asks for a json_schema response_format, anthropic forces a tool call: either way the answer must parse as the grading answer.
  const probe = await remoteGrade(b, 'positive', PROBE_CLAIM);
  if (probe.ok) {
    return { ...base, reachable: true, credential: credentialWords, structured_outputs: true, cost_tokens: probe.cost_tokens, words: `${words}; a probe grading call came back in the structured form` };
  }
  return {
    ...base,
    reachable: true,
    credential: probe.failure === 'credential' ? `refused: ${probe.detail}` : credentialWords,
    cost_tokens: probe.cost_tokens,
    words: `${words}; a probe grading call did not come back in the structured form (${probe.failure}: ${probe.detail})`,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
