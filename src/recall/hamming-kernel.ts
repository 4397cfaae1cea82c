/**
 * The inner loop of vector recall at scale: an approximate inner product of one query code
 * with every code of a partition, in WebAssembly because i64.popcnt does in one instruction
 * what JavaScript needs a dozen for (measured on the 2-core machine, one million 384-bit
 * codes: 2.7 ms in WebAssembly against 17.8 ms in JavaScript; sqlite-vec's own bit[384]
 * KNN takes 19 ms for k = 10 and 76 ms for k = 100). WebAssembly is part of Node, so this
 * adds no dependency; the module is assembled here from named opcodes so it can be read.
 *
 * A code is two bit-planes of `words` 64-bit words each (quantize.ts, ternaryCode): the
 * dimensions where the vector is positive, then those where it is negative. Zero stays
 * zero, which matters: hashed n-gram vectors are sparse (a short query sets a few dozen of
 * 512 dimensions), and plain sign bits would count every dimension both leave empty as
 * agreement, preferring short claims over similar ones (measured on the labelled set: the
 * true top 10 inside the 200 nearest by sign bits 50% of the time, by two planes 98%).
 *
 *   scan(codes, flags, n, words, query, mask, dist, hist)
 *     for each slot i < n: if flags[i] & mask the slot is skipped (dist = 0xFFFF);
 *     else agree = popcount((P & qP) | (N & qN)), differ = popcount((P & qN) | (N & qP)),
 *     dist[i] = 64 * words + differ - agree (smaller is nearer), hist[dist]++
 *   collect(dist, n, threshold, out) -> count
 *     writes every slot with dist <= threshold to out (u32), in slot order
 */

const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  i32Load: 0x28,
  i64Load: 0x29,
  i32Load8u: 0x2d,
  i32Load16u: 0x2f,
  i32Store: 0x36,
  i32Store16: 0x3b,
  i32Const: 0x41,
  i64Const: 0x42,
  i32LeU: 0x4d,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Shl: 0x74,
  i64Popcnt: 0x7b,
  i64Add: 0x7c,
  i64And: 0x83,
  i64Or: 0x84,
  i32WrapI64: 0xa7,
} as const;
const VOID = 0x40;
/** The distance written for a skipped slot: above any real distance, so no cut ever reaches it. */
const SKIPPED = 0xffff;
const I32 = 0x7f;
const I64 = 0x7e;

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const get = (local: number) => [OP.localGet, local];
const set = (local: number) => [OP.localSet, local];
const i32 = (n: number) => [OP.i32Const, ...sleb(n)];
/** A memory access: alignment as a power of two, offset 0. */
const mem = (op: number, align: number) => [op, align, 0];

function scanBody(): number[] {
  const [codes, flags, n, words, query, mask, dist, hist] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [i, j, p, half, dd, qp, agree, differ, a, b, c, d] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
  const distAddr = [...get(dist), ...get(i), ...i32(1), OP.i32Shl, OP.i32Add];
  const load64 = (...addr: number[]) => [...addr, ...mem(OP.i64Load, 3)];
  return [
    ...vec([[6, I32], [6, I64]]),
    ...get(codes), ...set(p),
    ...get(words), ...i32(8), OP.i32Mul, ...set(half),
    OP.block, VOID, OP.loop, VOID,
    ...get(i), ...get(n), OP.i32GeU, OP.brIf, 1,
    ...get(flags), ...get(i), OP.i32Add, ...mem(OP.i32Load8u, 0), ...get(mask), OP.i32And,
    OP.if, VOID,
    ...distAddr, ...i32(SKIPPED), ...mem(OP.i32Store16, 1),
    ...get(p), ...get(half), ...i32(1), OP.i32Shl, OP.i32Add, ...set(p),
    OP.else,
    OP.i64Const, 0, ...set(agree), OP.i64Const, 0, ...set(differ), ...i32(0), ...set(j), ...get(query), ...set(qp),
    OP.block, VOID, OP.loop, VOID,
    ...get(j), ...get(words), OP.i32GeU, OP.brIf, 1,
    // a, b: the row's positive and negative planes; c, d: the query's.
    ...load64(...get(p)), ...set(a),
    ...load64(...get(p), ...get(half), OP.i32Add), ...set(b),
    ...load64(...get(qp)), ...set(c),
    ...load64(...get(qp), ...get(half), OP.i32Add), ...set(d),
    ...get(agree), ...get(a), ...get(c), OP.i64And, ...get(b), ...get(d), OP.i64And, OP.i64Or, OP.i64Popcnt, OP.i64Add, ...set(agree),
    ...get(differ), ...get(a), ...get(d), OP.i64And, ...get(b), ...get(c), OP.i64And, OP.i64Or, OP.i64Popcnt, OP.i64Add, ...set(differ),
    ...get(p), ...i32(8), OP.i32Add, ...set(p),
    ...get(qp), ...i32(8), OP.i32Add, ...set(qp),
    ...get(j), ...i32(1), OP.i32Add, ...set(j),
    OP.br, 0,
    OP.end, OP.end,
    // Past the negative plane to the next row.
    ...get(p), ...get(half), OP.i32Add, ...set(p),
    // dist = bits + differ - agree, in 0..2 * bits: smaller is nearer.
    ...get(words), ...i32(6), OP.i32Shl, ...get(differ), OP.i32WrapI64, OP.i32Add, ...get(agree), OP.i32WrapI64, OP.i32Sub, ...set(dd),
    ...distAddr, ...get(dd), ...mem(OP.i32Store16, 1),
    // hist[dist] += 1
    ...get(hist), ...get(dd), ...i32(2), OP.i32Shl, OP.i32Add,
    ...get(hist), ...get(dd), ...i32(2), OP.i32Shl, OP.i32Add, ...mem(OP.i32Load, 2),
    ...i32(1), OP.i32Add, ...mem(OP.i32Store, 2),
    OP.end,
    ...get(i), ...i32(1), OP.i32Add, ...set(i),
    OP.br, 0,
    OP.end, OP.end,
    OP.end,
  ];
}

function collectBody(): number[] {
  const [dist, n, threshold, out, i, c] = [0, 1, 2, 3, 4, 5];
  return [
    ...vec([[2, I32]]),
    OP.block, VOID, OP.loop, VOID,
    ...get(i), ...get(n), OP.i32GeU, OP.brIf, 1,
    ...get(dist), ...get(i), ...i32(1), OP.i32Shl, OP.i32Add, ...mem(OP.i32Load16u, 1), ...get(threshold), OP.i32LeU,
    OP.if, VOID,
    ...get(out), ...get(c), ...i32(2), OP.i32Shl, OP.i32Add, ...get(i), ...mem(OP.i32Store, 2),
    ...get(c), ...i32(1), OP.i32Add, ...set(c),
    OP.end,
    ...get(i), ...i32(1), OP.i32Add, ...set(i),
    OP.br, 0,
    OP.end, OP.end,
    ...get(c),
    OP.end,
  ];
}

function assemble(): Uint8Array<ArrayBuffer> {
  const scanType = [0x60, ...vec(Array.from({ length: 8 }, () => [I32])), ...vec([])];
  const collectType = [0x60, ...vec(Array.from({ length: 4 }, () => [I32])), ...vec([[I32]])];
  const scan = scanBody();
  const collect = collectBody();
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([scanType, collectType])),
    // The memory is imported, so each partition brings (and grows) its own. It is shared
    // (limits flag 3: shared, with a maximum), so the scan worker reads the codes in place.
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x03, 0x00, ...uleb(MAX_PAGES)]])),
    ...section(3, vec([[0], [1]])),
    ...section(7, vec([[...name('scan'), 0x00, 0], [...name('collect'), 0x00, 1]])),
    ...section(10, vec([[...uleb(scan.length), ...scan], [...uleb(collect.length), ...collect]])),
  ]);
}

export interface HammingKernel {
  scan(codes: number, flags: number, n: number, words: number, query: number, mask: number, dist: number, hist: number): void;
  collect(dist: number, n: number, threshold: number, out: number): number;
}

/** The most 64 KiB pages a partition's memory may have: 4 GiB, the most a 32-bit address reaches. */
export const MAX_PAGES = 65536;

let compiled: WebAssembly.Module | null = null;

/** An instance of the kernel over `memory`; the module is compiled once per process. */
export function hammingKernel(memory: WebAssembly.Memory): HammingKernel {
  compiled ??= new WebAssembly.Module(assemble());
  return new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as HammingKernel;
}

