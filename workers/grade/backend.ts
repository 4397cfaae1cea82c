/** Which model reviewer a grade-pool task asks; plain data, so it crosses to a worker thread as it is. */
export type GradeBackend =
  | { name: string; kind: 'local' }
  | {
      name: string;
      kind: 'openai' | 'anthropic';
      url: string;
      model: string;
      /** The NAME of the environment variable holding the key; the worker reads it, so the key never travels in a task. */
      apiKeyEnv: string;
      effort: string;
      timeoutMs: number;
      connectTimeoutMs: number;
      maxRetries: number;
      maxTokens: number;
    };

/** The label of the embedded reviewer: it says plainly that these verdicts are rules, not a language model's. */
export const LOCAL_MODEL_LABEL = 'gate-local-rules/1 (deterministic, not an LLM)';

/** What a verdict is signed as: the kind and model, so two backends serving one model are one reviewer. */
export function modelLabel(b: GradeBackend): string {
  return b.kind === 'local' ? LOCAL_MODEL_LABEL : `${b.kind}:${b.model}`;
}
