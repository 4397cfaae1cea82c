import type { z } from 'zod';
import type { DECLARED_ORG_VERBS } from './org-registry.js';

type Declared = (typeof DECLARED_ORG_VERBS)[number];

/** Every org verb's name. */
export type OrgVerbName = Declared['name'];

type ByName<N extends OrgVerbName> = Extract<Declared, { name: N }>;

/** What an org verb's params accept (its zod schema's input). */
export type OrgVerbParams<N extends OrgVerbName> = z.input<ByName<N>['params']>;

/** What an org verb answers: its handler's return, awaited. The org's console types its calls with it. */
export type OrgVerbAnswer<N extends OrgVerbName> = Awaited<ReturnType<ByName<N>['handler']>>;
