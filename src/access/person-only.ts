import type { Caller } from './caller.js';
import { notAPerson } from '../gate-error.js';

/** Verbs whose rule says "signed-in person only" refuse API keys and socket peers. */
export function requirePerson(caller: Caller, method: string): void {
  if (caller.kind !== 'person') throw notAPerson(method);
}
