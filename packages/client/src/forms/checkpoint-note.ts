/**
 * The text of a signed checkpoint, after C2SP tlog-checkpoint and signed-note: three body
 * lines (origin, tree size in decimal, base64 root hash), a blank line, then one signature
 * line per signer, `— <key name> <base64(4-byte key hash || Ed25519 signature)>`. The
 * signature covers the body, final newline included. The gate's origin, and key name, is
 * `gate.journal/<deployment id>`, so a note names the one key that can sign it. Pure text
 * work (no node:crypto), so the browser's verifier shares it.
 */
export const CHECKPOINT_ORIGIN_PREFIX = 'gate.journal/';

/** C2SP signed-note's algorithm byte for Ed25519, hashed into the key hash. */
export const ED25519_NOTE_ALGORITHM = 0x01;

const SIGNATURE_LINE = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/;
const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;
const BASE64_32 = /^[A-Za-z0-9+/]{43}=$/;

export const checkpointOrigin = (deploymentId: string) => `${CHECKPOINT_ORIGIN_PREFIX}${deploymentId}`;

export function checkpointBody(origin: string, size: number, rootBase64: string): string {
  return `${origin}\n${size}\n${rootBase64}\n`;
}

/** The bytes a note key's 4-byte hash is the SHA-256 prefix of: name, newline, algorithm, public key. */
export function noteKeyHashInput(name: string, publicKey: Uint8Array): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const out = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  out.set(nameBytes, 0);
  out[nameBytes.length] = 0x0a;
  out[nameBytes.length + 1] = ED25519_NOTE_ALGORITHM;
  out.set(publicKey, nameBytes.length + 2);
  return out;
}

export const signatureLine = (name: string, signatureBase64: string) => `\u2014 ${name} ${signatureBase64}\n`;

export interface ParsedCheckpoint {
  /** The signed text: the three body lines with their newlines. */
  body: string;
  origin: string;
  size: number;
  root: string;
  signatures: Array<{ name: string; blob: string }>;
}

/** Reads a checkpoint note's shape; null for anything that is not one (extension lines are not used by this gate and refused). */
export function parseCheckpoint(note: string): ParsedCheckpoint | null {
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return null;
  const body = note.slice(0, split + 1);
  const lines = body.slice(0, -1).split('\n');
  if (lines.length !== 3) return null;
  const [origin, size, root] = lines as [string, string, string];
  if (origin === '' || /\s|\+/.test(origin) || !DECIMAL.test(size) || !BASE64_32.test(root)) return null;
  const signatures: ParsedCheckpoint['signatures'] = [];
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = SIGNATURE_LINE.exec(line);
    if (m === null) return null;
    signatures.push({ name: m[1]!, blob: m[2]! });
  }
  if (signatures.length === 0) return null;
  return { body, origin, size: Number(size), root, signatures };
}
