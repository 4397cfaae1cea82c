import { existsSync, readFileSync } from 'node:fs';
import { patch } from '@decimalturn/toml-patch';
import { parse as parseToml } from 'smol-toml';
import { configTemplate } from './config-template.js';
import { canonicalJson } from '../forms/canonical-json.js';
import type { FileValues } from './load-config.js';

/**
 * The text gv.settings_save writes: gate.toml as the operator keeps it, with only the
 * values that changed edited in place and new keys added to their section, so the
 * operator's comments, order and spacing survive a save. With no file yet, the full
 * template (every key with its doc). Should the edited text not read back as exactly
 * `values` (a file shape the patch does not handle), the template is written instead, so
 * a save never writes a value other than the one checked; `rewritten` then says the
 * file's own comments and order were lost.
 */
export function configSaveText(file: string, values: FileValues): { text: string; rewritten: boolean } {
  if (!existsSync(file)) return { text: configTemplate(values), rewritten: false };
  const existing = readFileSync(file, 'utf8');
  try {
    const text = patch(existing, values);
    if (canonicalJson(parseToml(text)) === canonicalJson(values)) return { text, rewritten: false };
  } catch {
    // A shape the patch does not handle: the template below.
  }
  return { text: configTemplate(values), rewritten: true };
}
