/**
 * gv.backend_check's probe: one GET of the backend's model list, which proves the server
 * answers and whether it takes the credential, without spending a grading call.
 */
import { z } from 'zod';
import { LOCAL_MODEL_LABEL, type GradeBackend } from './backend.js';
import type { BackendCheck } from './grade-task.js';
import { HttpCallError, callModelServer } from '../http/model-http.js';

const modelList = z.object({ data: z.array(z.looseObject({ id: z.string() })) });

export async function checkBackend(b: GradeBackend): Promise<BackendCheck> {
  if (b.kind === 'local') {
    return {
      reachable: true,
      credential: 'absent',
      model: LOCAL_MODEL_LABEL,
      effort: null,
      structured_outputs: true,
      words: 'the embedded deterministic reviewer: no network, no key, no tokens spent',
    };
  }
  const effort = b.effort === '' ? null : b.effort;
  // Both dialects answer structured output: openai by json_schema response_format, anthropic by a forced tool call.
  const base = { model: b.model, effort, structured_outputs: true };
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
  return { ...base, reachable: true, credential: b.apiKeyEnv !== '' && !key ? `absent: ${b.apiKeyEnv} is not set` : credential, words };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
