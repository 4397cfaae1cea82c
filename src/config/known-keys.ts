import { CONFIG_KEYS, type KeySpec } from './keys.js';

/**
 * Every `section.key` the table names, in a Map: a name an operator or a caller sends is looked
 * up here, never as a property of CONFIG_KEYS, where `server.constructor`, `auth.toString` or
 * `server.__proto__` would find the object's own members instead of "no such key".
 */
export const KNOWN_KEYS: ReadonlyMap<string, KeySpec> = new Map(
  Object.entries(CONFIG_KEYS as Record<string, Record<string, KeySpec>>).flatMap(([section, keys]) =>
    Object.entries(keys).map(([key, spec]) => [`${section}.${key}`, spec] as const),
  ),
);

/** The sections the table names, for the same reason. */
export const KNOWN_SECTIONS: ReadonlySet<string> = new Set(Object.keys(CONFIG_KEYS));
