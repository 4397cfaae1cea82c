import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import ts from 'typescript';
import { VERBS } from '../../src/verbs/registry.js';
import { HOUSE_PARTS } from '../../src/verbs/house.js';
import { gateProgram, helperUses, houseParts, verbUses } from './verb-uses.js';

/**
 * Verbs say what they use (issue 47, docs/architecture.md "What each verb uses"): the compiler
 * refuses a handler reaching a part its `uses` does not list; this test refuses the other way, a
 * part listed that the handler never reaches, read from the sources with the TypeScript compiler.
 */
const ROOT = join(import.meta.dirname, '../..');
const program = gateProgram(ROOT);
const verbs = verbUses(program, ROOT);
const helpers = helperUses(program, ROOT);

/** What `uses` lists and the handler does not reach, by verb. */
const unreached = (list: readonly { name?: string; at?: string; declared: string[] | null; reached: string[] }[]) =>
  list.flatMap((v) => {
    const extra = (v.declared ?? []).filter((p) => !v.reached.includes(p));
    return extra.length > 0 ? [`${v.name ?? v.at}: ${extra.join(', ')}`] : [];
  });

/** The reading run over one file that is not on disk, beside the gate's own sources. */
function readFixture(text: string) {
  const file = join(ROOT, 'src/verbs/verb-uses-fixture.ts');
  const options: ts.CompilerOptions = { ...program.getCompilerOptions(), noEmit: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const fixture = ts.createProgram({ rootNames: [file, join(ROOT, 'src/verbs/house.ts')], options, host });
  const errors = ts
    .getPreEmitDiagnostics(fixture, fixture.getSourceFile(file))
    .map((d) => `${d.start === undefined ? '?' : d.file!.getLineAndCharacterOfPosition(d.start).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  const only = 'src/verbs/verb-uses-fixture.ts';
  return { verbs: verbUses(fixture, ROOT, only), helpers: helperUses(fixture, ROOT, only), errors };
}

const FIXTURE = `
import { z } from 'zod';
import { defineVerb, type VerbContext } from './define-verb.js';

const answer = z.object({ n: z.string().optional() });
const params = z.strictObject({});
const takesClock = (ctx: Pick<VerbContext, 'clock'>) => ctx.clock.now();
export function leavesLog({ store, log }: VerbContext<'store' | 'log'>): string {
  return String(store);
}

export const destructured = defineVerb({ name: 'fx.destructured', role: 'reader', summary: '', params, answer,
  uses: ['store', 'log'], handler({ store, log }) { return { n: String(store) }; } });
export const dotted = defineVerb({ name: 'fx.dotted', role: 'reader', summary: '', params, answer,
  uses: ['store', 'clock'], handler(ctx) { return { n: String(ctx.store) }; } });
export const passed = defineVerb({ name: 'fx.passed', role: 'reader', summary: '', params, answer,
  uses: ['clock', 'log'], handler(ctx) { takesClock(ctx); return {}; } });
export const bound = defineVerb({ name: 'fx.bound', role: 'reader', summary: '', params, answer,
  uses: ['auth', 'deployment'], handler(ctx) { const { auth, deployment } = ctx; return { n: String(auth) }; } });
export const renamed = defineVerb({ name: 'fx.renamed', role: 'reader', summary: '', params, answer,
  uses: ['config'], handler({ config: settings }) { return { n: String(settings) }; } });
export const spread = defineVerb({ name: 'fx.spread', role: 'reader', summary: '', params, answer,
  uses: ['store'], handler(ctx) { const all = { ...ctx }; return { n: String(all) }; } });
export const undeclared = defineVerb({ name: 'fx.undeclared', role: 'reader', summary: '', params, answer,
  uses: ['clock'], handler({ clock, log }) { log.info(String(clock.now())); return {}; } });
export const reachesOut = defineVerb({ name: 'fx.reaches_out', role: 'reader', summary: '', params, answer,
  uses: ['clock'], handler(ctx) { return { n: String(ctx.store) + String(ctx.clock.now()) }; } });
`;
const fixture = readFixture(FIXTURE);

describe('what each verb uses', () => {
  it('reads every verb of the registry, and only those', () => {
    expect(verbs.map((v) => v.name).sort()).toEqual(VERBS.map((v) => v.name).sort());
  });

  it('every verb declares its parts, each once', () => {
    expect(verbs.filter((v) => v.declared === null).map((v) => v.name)).toEqual([]);
    expect(verbs.filter((v) => new Set(v.declared).size !== v.declared?.length).map((v) => v.name)).toEqual([]);
    // What the reading found is what the registry holds at run time.
    const byName = new Map(VERBS.map((v) => [v.name, [...v.uses]]));
    for (const v of verbs) expect(v.declared, v.name).toEqual(byName.get(v.name));
  });

  it('follows every handler to the end: its context goes nowhere the reading cannot see', () => {
    expect(verbs.filter((v) => v.unread.length > 0).map((v) => `${v.name}: ${v.unread.join(' | ')}`)).toEqual([]);
    expect(helpers.filter((h) => h.unread.length > 0).map((h) => `${h.at}: ${h.unread.join(' | ')}`)).toEqual([]);
  });

  it('no verb declares a part its handler never reaches', () => {
    expect(unreached(verbs)).toEqual([]);
  });

  it('no verb reaches a part it did not declare (the compiler refuses it; this reads it too)', () => {
    const undeclared = verbs.flatMap((v) => v.reached.filter((p) => !(v.declared ?? []).includes(p)).map((p) => `${v.name}: ${p}`));
    expect(undeclared).toEqual([]);
  });

  it('no helper taking a context names a part its body never reaches', () => {
    expect(helpers.length).toBeGreaterThan(5);
    expect(unreached(helpers)).toEqual([]);
  });

  it("HOUSE_PARTS names House's parts, in its order", () => {
    expect([...HOUSE_PARTS]).toEqual(houseParts(program, ROOT));
  });

  it('the reading finds a part declared and never reached, however the handler takes its context', () => {
    const byName = Object.fromEntries(fixture.verbs.map((v) => [v.name, v]));
    expect(byName['fx.destructured']).toMatchObject({ declared: ['store', 'log'], reached: ['store'], unread: [] });
    expect(byName['fx.dotted']).toMatchObject({ declared: ['store', 'clock'], reached: ['store'], unread: [] });
    expect(byName['fx.passed']).toMatchObject({ declared: ['clock', 'log'], reached: ['clock'], unread: [] });
    expect(byName['fx.bound']).toMatchObject({ declared: ['auth', 'deployment'], reached: ['auth'], unread: [] });
    expect(byName['fx.renamed']).toMatchObject({ declared: ['config'], reached: ['config'], unread: [] });
    expect(byName['fx.spread']!.unread).toEqual(['...ctx']);
    expect(unreached(fixture.verbs)).toEqual(['fx.destructured: log', 'fx.dotted: clock', 'fx.passed: log', 'fx.bound: deployment', 'fx.spread: store']);
    const leaves = fixture.helpers.find((h) => h.at.endsWith(' leavesLog'));
    expect(leaves).toMatchObject({ declared: ['store', 'log'], reached: ['store'] });
  });

  it('the compiler refuses a handler reaching a part its uses does not list, and nothing else of the fixture', () => {
    const { errors } = fixture;
    const line = (name: string) => FIXTURE.split('\n').findIndex((l) => l.includes(`'${name}'`)) + 2;
    expect(errors).toEqual([
      `${line('fx.undeclared')}: Property 'log' does not exist on type 'VerbContext<"clock">'.`,
      `${line('fx.reaches_out')}: Property 'store' does not exist on type 'VerbContext<"clock">'.`,
    ]);
  });
});
