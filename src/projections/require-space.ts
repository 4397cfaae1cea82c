import type { Gate } from '../gate.js';
import { invalidParams } from '../gate-error.js';

/** C7: a space must already exist; the refusal names the spaces that do. */
export function requireSpace(gate: Gate, space: string): string {
  const names = gate.store.spaceNames();
  if (!names.includes(space)) {
    throw invalidParams(`unknown space ${JSON.stringify(space)}; the spaces are: ${names.join(', ')}`, {
      field: 'space',
      spaces: names,
    });
  }
  return space;
}
