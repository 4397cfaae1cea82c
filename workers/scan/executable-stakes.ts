/**
 * How much a command inside a claim is worth to an attacker depends on what the claim is
 * for. A skill, a prompt template, a steering row or a bundle member is text an agent is
 * meant to act on: a download-and-execute line there is an instruction that will be
 * followed. A memory or an imported document is read as knowledge: the same line is at
 * worst advice someone might copy. The pipeline passes the row's content type (its kind
 * for gated rows) and this decides which of the two it is.
 */

import { RECORDED_CLASSES } from '../../src/domain/kinds.js';

export type Stakes = 'acted-on' | 'read';

/** Content types whose text agents carry out. */
export const ACTED_ON: ReadonlySet<string> = new Set([
  'skill',
  'prompt_template',
  'steering',
  'skill_archive',
  'bundle_skill',
  'bundle_python',
  'bundle_document',
  'bundle_asset',
]);

/**
 * Content types read as knowledge or kept as evidence. Anything not named here or above
 * (a type added later, or a caller that names none) is treated as acted on: an unregistered
 * type enters at the strictest class (docs/protocol.md#artifacts-kinds-and-trust-classes),
 * and the scanner follows.
 */
export const READ: ReadonlySet<string> = new Set([
  'memory',
  'derived_fact',
  'summary',
  'imported_document',
  'question',
  'answer',
  'project_map',
  'map_source',
  'map_document',
  'map_asset',
  'attachment_metadata',
  // A comment on a row (gv.comment): read by people and agents in a row's thread.
  'comment',
  // Recorded evidence is kept, never carried out.
  ...RECORDED_CLASSES,
]);

export function stakesOf(contentType: string | undefined): Stakes {
  return contentType !== undefined && READ.has(contentType) ? 'read' : 'acted-on';
}
