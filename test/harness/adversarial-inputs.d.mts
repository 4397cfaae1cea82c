/** One adversarial input of a pattern: a unit repeated, or a unit, a pump repeated and a tail. */
export interface AdversarialShape {
  shape: 'repeat' | 'pump';
  unit: string;
  pump?: string;
  tail?: string;
}
/** The character that ends an input built to fail. */
export declare const FAIL: string;
/** The adversarial shapes of one regular expression, built from its own pieces (seeded: the same every time). */
export declare function adversarialShapes(regex: RegExp, options?: { seed?: number; limit?: number }): AdversarialShape[];
/** The text of about `size` characters for a shape. */
export declare function inputOf(shape: AdversarialShape, size: number): string;
/** A short, printable name for a shape. */
export declare function describeShape(shape: AdversarialShape): string;
/** The regular expressions a module exports, in RegExp values, arrays and objects (a rule's `.pattern`). */
export declare function exportedPatterns(moduleName: string, namespace: Record<string, unknown>): Array<{ name: string; regex: RegExp }>;
/** Runs `regex` over `text` as a scan does, every match in turn; returns how many matched. */
export declare function matchAllOf(regex: RegExp, text: string): number;
/** The regular-expression literals written in a TypeScript source, each with its line. */
export declare function regexLiteralsIn(fileName: string, sourceText: string): Promise<Array<{ name: string; regex: RegExp }>>;
/** The module-level constants of a TypeScript source built with `new RegExp(…)`. */
export declare function builtPatternConstants(fileName: string, sourceText: string): Promise<string[]>;
