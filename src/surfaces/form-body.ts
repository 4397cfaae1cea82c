import type { IncomingMessage } from 'node:http';
import { jsonObjectBody } from '../http-rpc/json-object-body.js';
import { readBody } from './body-intake.js';

const mediaType = (req: IncomingMessage) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export type FormFields = Map<string, string>;

/**
 * A form-encoded body (or a JSON object of strings where `json` is allowed). A field given
 * twice is refused, as OAuth requires (RFC 6749 3.2: parameters MUST NOT be included more
 * than once): a repeated form parameter, or a repeated key in JSON, in any spelling, read as
 * strictly as /rpc reads a request (src/http-rpc/json-object-body.ts); JSON that fails that read is
 * `malformed`. An empty body is no fields. Null when the body is neither.
 */
export async function readForm(
  req: IncomingMessage,
  limit: number,
  options: { json?: boolean } = {},
): Promise<FormFields | 'too_large' | 'repeated' | 'malformed' | null> {
  const body = await readBody(req, limit);
  if (body === null) return 'too_large';
  const type = mediaType(req);
  if (type === 'application/x-www-form-urlencoded') {
    const fields = new Map<string, string>();
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) {
      if (fields.has(k)) return 'repeated';
      fields.set(k, v);
    }
    return fields;
  }
  if (options.json === true && type === 'application/json') {
    if (body.length === 0) return new Map();
    const read = jsonObjectBody(body);
    if ('fault' in read) return read.fault === 'structure' && read.structure.kind === 'duplicate' ? 'repeated' : 'malformed';
    const fields = new Map<string, string>();
    for (const [k, v] of Object.entries(read.value)) if (typeof v === 'string') fields.set(k, v);
    return fields;
  }
  return null;
}
