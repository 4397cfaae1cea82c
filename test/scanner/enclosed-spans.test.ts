import { describe, expect, it } from 'vitest';
import { enclosedSpans } from '../../workers/scan/enclosed-spans.js';

const OPEN = /<t>/g;
const CLOSE = /<\/t>/g;
const inner = (text: string, options: Parameters<typeof enclosedSpans>[3]) =>
  enclosedSpans(text, OPEN, CLOSE, options).map((span) => text.slice(span.inner, span.innerEnd));

describe('enclosedSpans reads as a lazy open…close pattern matched globally', () => {
  it('takes each opening to the next closing, and passes an opening inside an element already found', () => {
    expect(inner('<t>a</t> <t>b<t>c</t>', { max: 100 })).toEqual(['a', 'b<t>c']);
  });

  it('finds no element whose closing is more than max away, and goes on from the next opening', () => {
    expect(inner(`<t>${'x'.repeat(20)}<t>y</t>`, { max: 10 })).toEqual(['y']);
  });

  it("lets the text's end close an element only when asked", () => {
    expect(inner('<t>open to the end', { max: 100 })).toEqual([]);
    expect(inner('<t>open to the end', { max: 100, endCloses: true })).toEqual(['open to the end']);
  });

  it('takes an opening that stands alone as an element of its own', () => {
    const spans = enclosedSpans('<t> <t>x</t>', /<t>( )?/g, CLOSE, { max: 100, standsAlone: (m) => m[1] !== undefined });
    expect(spans.map((s) => [s.start, s.end])).toEqual([[0, 4], [4, 12]]);
  });
});
