import { createHash, randomBytes } from 'node:crypto';
import type { GateProcess, RpcAnswer } from './gate-process.js';

export const sha256Of = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Random bytes no sniffer names: bare random bytes now and then open with a signature
 * (0xFF 0xFB is an MP3 frame), which made tests expecting application/octet-stream flaky.
 */
export function opaqueBytes(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set(OPAQUE_PREFIX.subarray(0, size));
  return bytes;
}
const OPAQUE_PREFIX = Buffer.from([0x00, 0x7f, 0x00, 0x7f, 0x01, 0x7e, 0x01, 0x7e]);

/** Uploads `bytes` through gv.upload in chunks of `chunk` bytes; answers the last answer. */
export async function upload(gate: Pick<GateProcess, 'rpc'>, key: string, bytes: Uint8Array, chunk = 1 << 20): Promise<RpcAnswer> {
  const sha256 = sha256Of(bytes);
  let last: RpcAnswer | undefined;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    const part = Buffer.from(bytes.subarray(offset, offset + chunk));
    last = await gate.rpc(key, 'gv.upload', { sha256, size_bytes: bytes.length, offset, content: part.toString('base64') });
    if (last.error) return last;
  }
  return last!;
}

/** Reads a whole copy page by page, in order; answers the pages and the bytes. */
export async function readAttachment(gate: Pick<GateProcess, 'rpc'>, key: string, artifactId: string, contentHash: string, original = false) {
  const pages: any[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = await gate.rpc(key, 'gv.attachment', { artifact_id: artifactId, content_hash: contentHash, offset, ...(original ? { original } : {}) });
    if (page.error) throw new Error(`gv.attachment: ${page.error.message}`);
    pages.push(page.result);
    if (page.result.prepared === false) break;
    offset = page.result.next_offset;
  }
  const bytes = Buffer.concat(pages.filter((p) => p.content !== undefined).map((p) => Buffer.from(p.content, 'base64')));
  return { pages, bytes, last: pages.at(-1) };
}
