/**
 * The media type of an upload, from its bytes alone (file-type 21), never from its name.
 * Bytes no signature names are text/plain when they are UTF-8 with no NUL, else
 * application/octet-stream.
 */
import { fileTypeFromBuffer } from 'file-type';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function mediaTypeOf(bytes: Uint8Array): Promise<string> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected !== undefined) return detected.mime;
  try {
    const text = utf8.decode(bytes);
    return text.includes('\u0000') ? 'application/octet-stream' : 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}
