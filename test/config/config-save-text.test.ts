import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { configSaveText } from '../../dist/src/config/config-save-text.js';
import { configTemplate } from '../../dist/src/config/config-template.js';
import { readConfigFile } from '../../dist/src/config/load-config.js';

/**
 * What gv.settings_save writes (src/config/config-save-text.ts): the file as it stands with
 * only the changed values edited, so its comments and order survive; the template when there
 * is no file. The settings verb's own tests save through a served gate (test/verbs/settings.test.ts).
 */

const fileWith = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'gate-config-save-')), 'gate.toml');
  writeFileSync(file, text);
  return file;
};

/** The file's values with `section.key` set, as checkChanges hands them to the save. */
const withChange = (file: string, section: string, key: string, value: unknown) => {
  const values = structuredClone(readConfigFile(file));
  (values[section] ??= {})[key] = value;
  return values;
};

describe('the text a settings save writes', () => {
  it('a file written by the first start keeps every line but the saved key’s: each key’s doc comment stays', () => {
    const template = configTemplate();
    const file = fileWith(template);
    const { text, rewritten } = configSaveText(file, withChange(file, 'quarantine', 'max_depth', 250));
    expect(rewritten).toBe(false);
    const before = template.split('\n');
    const after = text.split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.map((line, i) => [before[i], line]).filter(([was, now]) => was !== now);
    expect(changed).toEqual([['max_depth = 100000', 'max_depth = 250']]);
  });

  it('a table-valued key (a model backend) is edited inside its own table, the operator’s comments kept', () => {
    const own = [
      '# Backends our team runs (see the wiki).',
      '[review]',
      'concurrency = 4 # the provider allows four',
      '',
      '[review.backends.house]',
      'kind = "openai"',
      '# the proxy in front of the provider',
      'url = "http://127.0.0.1:9000/v1"',
      'model = "house-model"',
      'api_key_env = "HOUSE_KEY"',
      '',
    ].join('\n');
    const file = fileWith(own);
    const values = withChange(file, 'review', 'backends', { house: { kind: 'openai', url: 'http://127.0.0.1:9001/v1', model: 'house-model', api_key_env: 'HOUSE_KEY' } });
    const { text, rewritten } = configSaveText(file, values);
    expect(rewritten).toBe(false);
    expect(text).toBe(own.replace('9000', '9001'));
    expect(parseToml(text)).toEqual(values);
  });

  it('with no file yet, the full template with the saved value', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gate-config-save-')), 'gate.toml');
    const { text, rewritten } = configSaveText(file, { quarantine: { max_depth: 7 } });
    expect(rewritten).toBe(false);
    expect(text).toBe(configTemplate({ quarantine: { max_depth: 7 } }));
  });
});
