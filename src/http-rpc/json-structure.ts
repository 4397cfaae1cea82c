/**
 * What JSON.parse does not say about a text it accepted: whether an object repeats a key
 * (JSON.parse keeps the last one silently, so a logger and a verb could read two different
 * requests) and how deep it nests (every later walk of the value, from the null check to
 * canonical JSON, recurses). One loop over the text, no second parse.
 */
export type StructureFault =
  | { kind: 'depth'; limit: number }
  /** `within`: the members leading to the object that repeats `key`, outermost first; [] at the top level. */
  | { kind: 'duplicate'; key: string; within: Array<string | number> };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Past this many keys an object's keys move from a list (cheap to fill, linear to ask) to a Set. */
const LIST_KEYS = 12;

/**
 * The first structural fault of `text`, in text order, or null. `text` must be JSON that
 * JSON.parse accepted: the loop trusts its grammar, so it only has to tell strings (skipped
 * with a native indexOf, their content never walked) from the brackets, commas and keys
 * between them. Depth counts the containers around a value, the outermost being 1; the
 * walk stops at the first container past `maxDepth`, however deep the text goes on.
 */
export function structureFault(text: string, maxDepth: number): StructureFault | null {
  // Per open container, by depth: an object's keys so far (an array's entry is null) and,
  // for naming a fault's path, the key or index the walk is at.
  const lists: Array<string[] | null> = [];
  const sets: Array<Set<string> | null> = [];
  const at: Array<string | number> = [];
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (expectKey) {
        const raw = text.slice(i + 1, end);
        // Escapes name the same key in other spellings ("a" and "\u0061"): compare decoded.
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (seenBefore(lists, sets, depth - 1, key)) return { kind: 'duplicate', key, within: at.slice(0, depth - 1) };
        at[depth - 1] = key;
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === maxDepth) return { kind: 'depth', limit: maxDepth };
      const object = c === OPEN_OBJECT;
      const list = lists[depth];
      if (!object) lists[depth] = null;
      else if (list) list.length = 0;
      else lists[depth] = [];
      sets[depth] = null;
      at[depth] = object ? '' : 0;
      depth += 1;
      expectKey = object;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
      expectKey = false;
    } else if (c === COMMA) {
      if (lists[depth - 1] === null) at[depth - 1] = (at[depth - 1] as number) + 1;
      else expectKey = true;
    }
  }
  return null;
}

/** The quote closing the string opened at `open`: the next one not escaped by an odd run of backslashes. */
function closingQuote(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  for (;;) {
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b -= 1;
    if ((q - 1 - b) % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
}

/** Records `key` in the object at `level`; true when it was there already. */
function seenBefore(lists: Array<string[] | null>, sets: Array<Set<string> | null>, level: number, key: string): boolean {
  const set = sets[level];
  if (set) {
    if (set.has(key)) return true;
    set.add(key);
    return false;
  }
  const list = lists[level]!;
  if (list.includes(key)) return true;
  list.push(key);
  if (list.length > LIST_KEYS) sets[level] = new Set(list);
  return false;
}
