import { invalidParams } from '../gate-error.js';
import type { Store } from './store.js';

/** C7: a space must already exist; the refusal names the spaces that do. */
export function requireSpace(house: { readonly store: Store }, space: string): string {
  const names = house.store.spaceNames();
  if (!names.includes(space)) {
    throw invalidParams(`unknown space ${JSON.stringify(space)}; the spaces are: ${names.join(', ')}`, {
      field: 'space',
      spaces: names,
    });
  }
  return space;
}
