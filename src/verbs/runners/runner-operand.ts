import { z } from 'zod';
import { invalidParams } from '../../gate-error.js';
import type { RunnerKeyRow } from '../../crews/crews.js';
import type { House } from '../house.js';

/** A runner is named by its key id (docs/protocol.md#gvrunner_keys-and-gvrunner_token). */
export const runnerParam = z.string().regex(/^[0-9a-f]{12}$/, 'a runner is named by its key id: 12 lower-case hex characters');

/** The runner key, unrevoked and unexpired; anything else is refused `not_a_runner`. */
export function requireRunner(house: Pick<House, 'crews'>, keyId: string): RunnerKeyRow {
  const key = house.crews.runners.activeRunner(keyId);
  if (key === undefined) throw invalidParams(`key ${keyId} is not a usable runner key`, { reason: 'not_a_runner', field: 'runner' });
  return key;
}

/** The calling runner's key id (its identity is `key:<id>`). */
export const callingRunner = (identity: string) => identity.slice('key:'.length);
