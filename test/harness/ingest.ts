import { expect } from 'vitest';
import { uniqueText, type RpcAnswer } from './gate-process.js';

/** Anything that answers /rpc with a key: a GateProcess, an InProcessServer, a useGate stand-in. */
export interface RpcGate {
  rpc(key: string, method: string, params?: unknown): Promise<RpcAnswer>;
}

/** A raw key, or a key holder (`{ key }`, as GateProcess.key and useGate's keys give). */
export type KeyLike = string | { key: string };

/**
 * What a test writes. Every field has a default, so `{}` is a valid claim: a unique memory in
 * work area `tests`, from `test://ingest`, in the caller's default space. Any other field
 * (space, producer, derives_from, attachments, addressed_to, ...) goes to gv.ingest as it is;
 * a field given as undefined is left out of the request.
 */
export interface IngestParams {
  content?: string;
  kind?: string;
  workarea?: string;
  source_uri?: string;
  space?: string;
  [extra: string]: unknown;
}

/** What gv.ingest answers for an admitted claim (the fields tests read most; the rest are there too). */
export interface Ingested {
  artifact_id: string;
  state: string;
  [field: string]: any;
}

/** The params sent: the defaults, then `params` over them. */
export function ingestParams(params: IngestParams = {}): IngestParams {
  return { content: uniqueText('ingest'), kind: 'memory', workarea: 'tests', source_uri: 'test://ingest', ...params };
}

/** One gv.ingest by `key`: the whole answer, a refusal included (for tests that look at it). */
export function ingestAnswer(gate: RpcGate, key: KeyLike, params: IngestParams = {}): Promise<RpcAnswer> {
  return gate.rpc(typeof key === 'string' ? key : key.key, 'gv.ingest', ingestParams(params));
}

/** One gv.ingest that must be admitted: its result. A refusal fails the test, with the gate's error. */
export async function ingestResult(gate: RpcGate, key: KeyLike, params: IngestParams = {}): Promise<Ingested> {
  const answer = await ingestAnswer(gate, key, params);
  expect(answer.error, `gv.ingest refused: ${JSON.stringify(answer.error)}`).toBeUndefined();
  return answer.result as Ingested;
}

/** One gv.ingest that must be admitted: its artifact id. */
export async function ingestId(gate: RpcGate, key: KeyLike, params: IngestParams = {}): Promise<string> {
  return (await ingestResult(gate, key, params)).artifact_id;
}
