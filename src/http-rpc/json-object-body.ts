import { isUtf8 } from 'node:buffer';
import { isJsonObject } from '../domain/json-object.js';
import { MAX_REQUEST_DEPTH } from '../domain/request-depth.js';
import { hasLoneSurrogate } from './lone-surrogates.js';
import { structureFault, type StructureFault } from './json-structure.js';

/** What was wrong with a body that is not one JSON object, in the order the read finds it. */
export type JsonBodyFault =
  | { fault: 'not_utf8' }
  | { fault: 'not_json' }
  | { fault: 'not_object' }
  /** A repeated key or a nesting past the depth limit; the object is given so a door can still name the request's id. */
  | { fault: 'structure'; structure: StructureFault; value: Record<string, unknown> }
  | { fault: 'lone_surrogate' };

export type JsonObjectBody = { value: Record<string, unknown> } | JsonBodyFault;

/**
 * A body's bytes as one JSON object, read strictly the same way at every door that reads
 * JSON (/rpc, /mcp, the socket's lines, /oauth/logout, the organization's PUT /submissions): UTF-8 checked, never decoded into
 * U+FFFD (the bytes a writer sent are the bytes the journal hashes; isUtf8 then toString
 * costs what a fatal TextDecoder does, bench/request-parse.js, and refuses without an
 * exception); parsed once with JSON.parse (which does not recurse, whatever the depth); then
 * one loop over the same text finds a repeated key, in any spelling, and the depth; and a
 * string escaping a lone surrogate (no UTF-8 form) is refused. A BOM stays in the text, and
 * JSON.parse refuses it.
 */
export function jsonObjectBody(body: Buffer): JsonObjectBody {
  if (!isUtf8(body)) return { fault: 'not_utf8' };
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { fault: 'not_json' };
  }
  if (!isJsonObject(value)) return { fault: 'not_object' };
  const structure = structureFault(text, MAX_REQUEST_DEPTH);
  if (structure !== null) return { fault: 'structure', structure, value };
  if (hasLoneSurrogate(text, value)) return { fault: 'lone_surrogate' };
  return { value };
}

/** The sentence a door that answers in plain HTTP (the organization's PUT /submissions) refuses a fault with, 400. */
export function jsonBodyFaultReason(read: JsonBodyFault): string {
  switch (read.fault) {
    case 'not_utf8':
      return 'the body is not UTF-8';
    case 'not_json':
      return 'the body is not JSON';
    case 'not_object':
      return 'the body is one JSON object';
    case 'lone_surrogate':
      return 'the body escapes a lone UTF-16 surrogate: that text has no UTF-8 form';
    case 'structure': {
      const fault = read.structure;
      if (fault.kind === 'depth') return `the body nests deeper than the limit of ${fault.limit} levels`;
      return `duplicate key ${JSON.stringify(fault.key)} ${fault.within.length === 0 ? 'at the top level' : `in ${fault.within.join('.')}`}`;
    }
  }
}
