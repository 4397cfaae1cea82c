import { invalidParams } from '../../gate-error.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict base64 (canonical padding, no white space) to bytes; anything else is refused naming `field`. */
export function decodeBase64(content: string, field: string): Buffer {
  if (!BASE64.test(content)) throw invalidParams(`${field} is not strict base64`, { field });
  return Buffer.from(content, 'base64');
}

/**
 * A claim's bytes: UTF-8 text, sent as a string or as strict base64 (docs/protocol.md#gvingest).
 * Either way it must be well-formed UTF-8 text with no NUL; a file is an attachment.
 */
export function decodeContent(content: string, encoding: 'base64' | undefined): { bytes: Buffer; text: string } {
  let bytes: Buffer;
  let text: string;
  if (encoding === 'base64') {
    bytes = decodeBase64(content, 'content');
    try {
      text = utf8.decode(bytes);
    } catch {
      throw invalidParams('content is not UTF-8 text; send a file as an attachment', { field: 'content' });
    }
  } else {
    if (!content.isWellFormed()) throw invalidParams('content has an unpaired surrogate', { field: 'content' });
    text = content;
    bytes = Buffer.from(content, 'utf8');
  }
  if (bytes.length === 0) throw invalidParams('content is empty', { field: 'content' });
  if (text.includes('\u0000')) throw invalidParams('content contains NUL; send a file as an attachment', { field: 'content' });
  return { bytes, text };
}
