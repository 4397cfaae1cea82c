import { parse, type ValueNode } from '@humanwhocodes/momoa';

export class DuplicateKeyError extends Error {}

/** Plain data from the syntax tree; `__proto__` becomes an own key, never a prototype. */
function valueOf(node: ValueNode, path: string): unknown {
  switch (node.type) {
    case 'Object': {
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const member of node.members) {
        const key = member.name.type === 'String' ? member.name.value : member.name.name;
        if (seen.has(key)) throw new DuplicateKeyError(`duplicate key ${JSON.stringify(key)} at ${path || 'the top level'}`);
        seen.add(key);
        Object.defineProperty(out, key, { value: valueOf(member.value, `${path}.${key}`), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'Array':
      return node.elements.map((e, i) => valueOf(e.value, `${path}[${i}]`));
    case 'Null':
      return null;
    case 'String':
    case 'Number':
    case 'Boolean':
      return node.value;
    default:
      throw new SyntaxError(`not JSON: ${node.type}`);
  }
}

/**
 * JSON.parse that rejects a duplicate key at any depth (docs/protocol.md#client-transport-rules, rule 2): JSON.parse
 * keeps the last of two keys silently, so a reply could say one thing to a logger and
 * another to this client. A real parser reports the members; no pattern matching.
 */
export function parseStrictJson(text: string): unknown {
  return valueOf(parse(text, { mode: 'json' }).body, '');
}
