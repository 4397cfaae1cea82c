/**
 * How vectors are stored: int8 with a per-vector scale (cosine ignores scale, so the scale
 * need not be kept; a unit vector loses about 0.001 of cosine, and 512 dimensions take 512
 * bytes instead of 2 KB), and a binary sign code (one bit per dimension, set when the value
 * is positive, and one set when it is negative: ternaryCode) for the Hamming kernel.
 */

export function toInt8(v: Float32Array): Int8Array {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const out = new Int8Array(v.length);
  if (max === 0) return out;
  const scale = 127 / max;
  for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]! * scale);
  return out;
}

export const codeWords = (dims: number) => Math.ceil(dims / 64);

/**
 * Two bit-planes, each padded to whole 64-bit words: bit i of the first set where v[i] > 0,
 * of the second where v[i] < 0 (least significant bit first, sqlite-vec's
 * vec_quantize_binary layout for each plane). The Hamming kernel scores codes by how many
 * dimensions agree in sign minus how many disagree, ignoring those either leaves at zero.
 */
export function ternaryCode(v: ArrayLike<number>, dims: number): Uint8Array {
  const half = codeWords(dims) * 8;
  const code = new Uint8Array(2 * half);
  for (let i = 0; i < dims; i++) {
    if (v[i]! > 0) code[i >> 3]! |= 1 << (i & 7);
    else if (v[i]! < 0) code[half + (i >> 3)]! |= 1 << (i & 7);
  }
  return code;
}

export const isZero = (v: ArrayLike<number>) => {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
};

/** Cosine similarity of a query with a stored int8 vector; 0 when either is all zeros. */
export function cosine(q: Float32Array, stored: Int8Array): number {
  let dot = 0;
  let qq = 0;
  let ss = 0;
  for (let i = 0; i < q.length; i++) {
    const a = q[i]!;
    const b = stored[i]!;
    dot += a * b;
    qq += a * a;
    ss += b * b;
  }
  return qq === 0 || ss === 0 ? 0 : dot / Math.sqrt(qq * ss);
}

/** An int8 vector as floats of unit length (a stored vector used as a query). */
export function fromInt8(v: Int8Array): Float32Array {
  const out = Float32Array.from(v);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
