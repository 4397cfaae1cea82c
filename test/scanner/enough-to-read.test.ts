import { describe, expect, it } from 'vitest';
import { enoughToRead } from '../../workers/scan/attack-windows.js';

// enoughToRead counts a window outside ASCII in one pass over its units; it must say what
// counting the window's slice with patterns says (the reference below), wherever the
// window's edges fall, a surrogate pair split by an edge included.
function enoughAlone(window: string): boolean {
  const words = (window.match(/[\p{L}\p{N}]+/gu) ?? []).map((run) => run.replace(/\p{N}/gu, '').length).filter((letters) => letters > 0);
  const letters = words.reduce((n, l) => n + l, 0);
  if (letters < 10) return false;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(window)) return true;
  return words.length >= 3 && words.filter((l) => l >= 4).length >= 2;
}

const PIECES = ['word', 'words', 'жжжж', 'ж', '中文', 'ไทย', 'カタカナ', '𝐚𝐛𝐜𝐝', '😀', '\ud835', '\udc00', '٣٤', '１２', 'Ⅻ', 'e\u0301', 'é', '42', ' ', '. ', '\n', 'abc1def'];

describe('whether a window outside ASCII holds enough to read', () => {
  it('counts as the slice counted with patterns, wherever the window starts and ends', () => {
    let compared = 0;
    for (let k = 0; k < 600; k++) {
      const text = Array.from({ length: 2 + (k % 23) }, (_, j) => PIECES[(k * 13 + j * 7 + (j * j) % 5) % PIECES.length]).join(k % 3 === 0 ? '' : ' ');
      for (let start = 0; start < text.length; start += 1 + (k % 4)) {
        for (let end = start; end <= text.length; end += 1 + (k % 5)) {
          expect(enoughToRead(text, start, end), JSON.stringify(text.slice(start, end))).toBe(enoughAlone(text.slice(start, end)));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
