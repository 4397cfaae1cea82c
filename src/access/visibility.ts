import type { Caller } from './caller.js';
import type { Capabilities } from './capabilities.js';
import { atLeast } from '../domain/roles.js';
import { isPromoted } from '../domain/states.js';
import { unknownArtifact } from '../gate-error.js';

export interface VisibleRow {
  artifact_id: string;
  state: string;
  space: string;
  writer_identity: string;
}

/**
 * The one visibility function (rule U and C6). From reviewer up every row is readable.
 * Below reviewer: the caller's own rows, and promoted rows of a space it may read.
 * Everything else is answered exactly as an id that names no row.
 */
export class Visibility {
  constructor(private readonly capabilities: Capabilities) {}

  canRead(caller: Caller, row: VisibleRow): boolean {
    if (atLeast(caller.role, 'reviewer')) return true;
    if (row.writer_identity === caller.identity) return true;
    return isPromoted(row.state) && this.capabilities.has(caller, row.space, 'read');
  }

  /** Returns the row when the caller may read it; otherwise throws the rule-U refusal. */
  readable<R extends VisibleRow>(caller: Caller, id: string, row: R | undefined): R {
    if (row === undefined || !this.canRead(caller, row)) throw unknownArtifact(id);
    return row;
  }

  seesEverything(caller: Caller): boolean {
    return atLeast(caller.role, 'reviewer');
  }
}
