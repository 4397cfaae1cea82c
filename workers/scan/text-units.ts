/**
 * The UTF-16 units of a text as a typed array, for the scan's passes over every unit (the
 * cue stream, the classifier's windows and features, the encoded runs). On the 2-core
 * machine `charCodeAt` in a loop costs about 2.5 ns a unit and a typed array read a quarter
 * of that, while Buffer's native UTF-16 write fills the array in about 0.1 µs a KB.
 *
 * The array of the text asked about last is kept and reused: a caller reads it in one loop
 * that calls nothing that scans another text, and asks again next time.
 */

let lastText: string | null = null;
let units = new Uint16Array(4096);
let bytes = Buffer.from(units.buffer);

/** The units of `text` at 0 .. text.length - 1 (the array may be longer). */
export function unitsOf(text: string): Uint16Array {
  if (text !== lastText) {
    if (units.length < text.length) {
      units = new Uint16Array(text.length * 2);
      bytes = Buffer.from(units.buffer);
    }
    bytes.write(text, 0, 'utf16le');
    lastText = text;
  }
  return units;
}
