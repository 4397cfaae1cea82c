/** SHA-256 of bytes in lower-case hex, in the browser (Web Crypto): how event ids and content hashes are spelled. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
