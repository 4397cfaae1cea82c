import { invalidParams } from '../gate-error.js';

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Artifact operands are read with or without the `sha256:` prefix (C4); any other form is
 * refused before dispatch. The wire form always carries the prefix.
 */
export function parseArtifactId(operand: string, field = 'artifact_id'): string {
  const hex = operand.startsWith('sha256:') ? operand.slice(7) : operand;
  if (!HEX64.test(hex)) {
    throw invalidParams(`${field} must be sha256:<64 lower-case hex> or the 64 hex alone`, { field });
  }
  return `sha256:${hex}`;
}

export const isArtifactId = (v: string) => v.startsWith('sha256:') && HEX64.test(v.slice(7));
