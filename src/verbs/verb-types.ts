import type { z } from 'zod';
import type { Normalized } from '@gate/client';
import type { DECLARED_VERBS } from './registry.js';

type Declared = (typeof DECLARED_VERBS)[number];

/** Every verb's name. */
export type VerbName = Declared['name'];

type ByName<N extends VerbName> = Extract<Declared, { name: N }>;

/** What a verb's params accept (its zod schema's input): a caller's view. */
export type VerbParams<N extends VerbName> = z.input<ByName<N>['params']>;

/** What a verb answers: its answer schema's output (its handler is held to it). The console types its calls with it. */
export type VerbAnswer<N extends VerbName> = Normalized<z.output<ByName<N>['answer']>>;
