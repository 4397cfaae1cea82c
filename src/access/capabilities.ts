import type { Caller } from './caller.js';
import type { GrantReads } from '../projections/grant-reads.js';
import { atLeast } from '../domain/roles.js';
import { notGranted } from '../gate-error.js';

export const CAPABILITIES = ['read', 'contribute', 'submit'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Per-space capabilities (docs/protocol.md#capabilities): an admin needs no grant; open spaces
 * (config `access.open_spaces`) give every caller read and contribute; otherwise a grant to
 * the caller's identity, or to `uid:<n>` for a socket peer, decides.
 */
export class Capabilities {
  private readonly open: ReadonlySet<string>;
  /** Refusals counted since start, reported by gv.grants (not journal facts: nothing changed). */
  readonly refusals = new Map<string, number>();

  constructor(
    private readonly grants: GrantReads,
    openSpaces: readonly string[],
  ) {
    this.open = new Set(openSpaces);
  }

  principalsOf(caller: Caller): string[] {
    const own = [caller.identity];
    if (caller.uid !== undefined && caller.identity !== `uid:${caller.uid}`) own.push(`uid:${caller.uid}`);
    return own;
  }

  has(caller: Caller, space: string, capability: Capability): boolean {
    if (atLeast(caller.role, 'admin')) return true;
    if (capability !== 'submit' && this.open.has(space)) return true;
    return this.principalsOf(caller).some((principal) => {
      const row = this.grants.capabilities(principal, space);
      return row !== undefined && row.capabilities.split(',').includes(capability);
    });
  }

  require(caller: Caller, space: string, capability: Capability): void {
    if (this.has(caller, space, capability)) return;
    this.refusals.set(caller.identity, (this.refusals.get(caller.identity) ?? 0) + 1);
    throw notGranted(space, capability);
  }

  isOpen(space: string): boolean {
    return this.open.has(space);
  }
}
