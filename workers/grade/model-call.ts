/**
 * One reviewer call to a remote backend: the request in the backend's own dialect, the
 * answer checked with zod, and every way it can go wrong turned into a failed outcome.
 * A refusal, a truncated or malformed answer, or an HTTP error is never an approval.
 */
import { z } from 'zod';
import type { GradeBackend } from './backend.js';
import type { GradeFailure, GradeInput, GradeOutcome } from './grade-task.js';
import { ANSWER_JSON_SCHEMA, ANSWER_MAX_BYTES, parseGradeAnswer } from './answer.js';
import { systemPrompt, userPrompt } from './rubric.js';
import { HttpCallError, callModelServer } from '../http/model-http.js';

type RemoteBackend = Extract<GradeBackend, { kind: 'openai' | 'anthropic' }>;

const openaiAnswer = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
  usage: z.object({ total_tokens: z.number().int().min(0) }).partial().optional(),
});

const anthropicAnswer = z.object({
  model: z.string().optional(),
  stop_reason: z.string().nullish(),
  content: z.array(z.looseObject({ type: z.string(), name: z.string().optional(), input: z.unknown().optional() })),
  usage: z.object({ input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) }).partial().optional(),
});

class Failed extends Error {
  constructor(
    readonly failure: GradeFailure,
    readonly detail: string,
    readonly costTokens = 0,
    readonly status?: number,
  ) {
    super(detail);
  }
}

function apiKey(b: RemoteBackend): string | null {
  if (b.apiKeyEnv === '') return null;
  const key = process.env[b.apiKeyEnv];
  if (!key) throw new Failed('credential', `${b.apiKeyEnv} is not set in the gate's environment`);
  return key;
}

export function requestOf(b: RemoteBackend, stance: string, input: GradeInput): { url: string; headers: Record<string, string>; body: string } {
  const key = apiKey(b);
  const base = b.url.replace(/\/+$/, '');
  if (b.kind === 'openai') {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    const body: Record<string, unknown> = {
      model: b.model,
      messages: [
        { role: 'system', content: systemPrompt(stance) },
        { role: 'user', content: userPrompt(input) },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'verdict', strict: true, schema: ANSWER_JSON_SCHEMA } },
      max_tokens: b.maxTokens,
      temperature: 0,
    };
    if (b.effort !== '') body['reasoning_effort'] = b.effort;
    return { url: `${base}/chat/completions`, headers, body: JSON.stringify(body) };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  if (key !== null) headers['x-api-key'] = key;
  // A forced tool call is the messages API's structured output: the answer is the tool's input.
  const body = {
    model: b.model,
    max_tokens: b.maxTokens,
    system: systemPrompt(stance),
    messages: [{ role: 'user', content: userPrompt(input) }],
    tools: [{ name: 'record_verdict', description: 'Record the verdict on the claim.', input_schema: ANSWER_JSON_SCHEMA }],
    tool_choice: { type: 'tool', name: 'record_verdict' },
    temperature: 0,
  };
  return { url: `${base}/v1/messages`, headers, body: JSON.stringify(body) };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Failed('malformed', 'the server answered something that is not JSON');
  }
}

/** The verdict object out of a backend's envelope, with the tokens it cost. */
function unwrap(b: RemoteBackend, text: string): { verdict: unknown; cost: number; model: string } {
  const json = readJson(text);
  if (b.kind === 'openai') {
    const parsed = openaiAnswer.safeParse(json);
    if (!parsed.success) throw new Failed('malformed', 'not a chat-completions answer');
    const cost = parsed.data.usage?.total_tokens ?? 0;
    const choice = parsed.data.choices[0]!;
    if (choice.message.refusal) throw new Failed('refused', `the model refused: ${choice.message.refusal.slice(0, 200)}`, cost);
    if (choice.finish_reason === 'length') throw new Failed('malformed', 'the answer was cut at max_tokens', cost);
    if (choice.finish_reason === 'content_filter') throw new Failed('refused', 'the answer was withheld by a content filter', cost);
    if (!choice.message.content) throw new Failed('malformed', 'the answer has no content', cost);
    return { verdict: choice.message.content, cost, model: parsed.data.model ?? b.model };
  }
  const parsed = anthropicAnswer.safeParse(json);
  if (!parsed.success) throw new Failed('malformed', 'not a messages answer');
  const cost = (parsed.data.usage?.input_tokens ?? 0) + (parsed.data.usage?.output_tokens ?? 0);
  if (parsed.data.stop_reason === 'refusal') throw new Failed('refused', 'the model refused', cost);
  if (parsed.data.stop_reason === 'max_tokens') throw new Failed('malformed', 'the answer was cut at max_tokens', cost);
  const tool = parsed.data.content.find((c) => c.type === 'tool_use' && c.name === 'record_verdict');
  if (tool === undefined) throw new Failed('malformed', 'the answer has no record_verdict tool call', cost);
  return { verdict: tool.input, cost, model: parsed.data.model ?? b.model };
}

export async function remoteGrade(b: RemoteBackend, stance: string, input: GradeInput): Promise<GradeOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const req = requestOf(b, stance, input);
    let answer;
    try {
      answer = await callModelServer(b, req.url, { method: 'POST', headers: req.headers, body: req.body, maxBytes: ANSWER_MAX_BYTES });
    } catch (error) {
      if (error instanceof HttpCallError) throw new Failed(error.kind, error.message, 0, error.status);
      throw error;
    }
    if (answer.status === 401 || answer.status === 403) throw new Failed('credential', `HTTP ${answer.status}: the backend refused the credential`, 0, answer.status);
    if (answer.status < 200 || answer.status > 299) throw new Failed('http', `HTTP ${answer.status}`, 0, answer.status);
    const { verdict, cost, model } = unwrap(b, answer.text);
    const checked = parseGradeAnswer(verdict);
    if (!checked.ok) throw new Failed('malformed', checked.detail, cost);
    return { ok: true, answer: checked.answer, cost_tokens: cost, model, ms: ms() };
  } catch (error) {
    if (error instanceof Failed) {
      return { ok: false, failure: error.failure, detail: error.detail, cost_tokens: error.costTokens, ms: ms(), ...(error.status === undefined ? {} : { status: error.status }) };
    }
    return { ok: false, failure: 'connect', detail: String(error instanceof Error ? error.message : error).slice(0, 200), cost_tokens: 0, ms: ms() };
  }
}
