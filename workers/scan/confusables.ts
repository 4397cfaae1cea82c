/**
 * Cyrillic and Greek letters that render like Latin ones in common fonts (a subset of
 * Unicode's confusables.txt, restricted to the pairs people actually mistake), and the Latin
 * letters that in turn pass for Cyrillic or Greek. Mixing only these inside one word makes
 * it read as another word, which is what a homoglyph spoof needs.
 */

export const LATIN_LOOKALIKE: ReadonlyMap<string, string> = new Map([
  // Cyrillic
  ['а', 'a'], ['е', 'e'], ['ё', 'e'], ['і', 'i'], ['ї', 'i'], ['ј', 'j'], ['о', 'o'], ['р', 'p'], ['с', 'c'],
  ['у', 'y'], ['х', 'x'], ['ѕ', 's'], ['һ', 'h'], ['ԁ', 'd'], ['ԛ', 'q'], ['ԝ', 'w'], ['ӏ', 'l'], ['ɡ', 'g'],
  ['А', 'A'], ['В', 'B'], ['Е', 'E'], ['К', 'K'], ['М', 'M'], ['Н', 'H'], ['О', 'O'], ['Р', 'P'], ['С', 'C'],
  ['Т', 'T'], ['Х', 'X'], ['У', 'Y'], ['Ү', 'Y'], ['І', 'I'], ['Ј', 'J'], ['Ѕ', 'S'], ['Ԛ', 'Q'], ['Ԝ', 'W'], ['Ӏ', 'I'],
  // Greek
  ['α', 'a'], ['ο', 'o'], ['ν', 'v'], ['ρ', 'p'], ['υ', 'u'], ['ι', 'i'], ['κ', 'k'],
  ['Α', 'A'], ['Β', 'B'], ['Ε', 'E'], ['Ζ', 'Z'], ['Η', 'H'], ['Ι', 'I'], ['Κ', 'K'], ['Μ', 'M'], ['Ν', 'N'],
  ['Ο', 'O'], ['Ρ', 'P'], ['Τ', 'T'], ['Υ', 'Y'], ['Χ', 'X'],
]);

/** Latin letters that pass for a letter of the named script. */
export const PASSES_FOR: Readonly<Record<'Cyrillic' | 'Greek', ReadonlySet<string>>> = {
  Cyrillic: new Set([...'aceopxyijshdqwlABCEHIJKMOPSTXY']),
  Greek: new Set([...'oavpuikABEZHIKMNOPTYX']),
};
