import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { ANCHORED_PRESET_VERSION, CASE_SENSITIVE_ANCHORS, mayHoldKnownSecret, RULE_ANCHORS } from '../../workers/scan/secretlint-anchors.js';
import { findKnownSecrets } from '../../workers/scan/secretlint-secrets.js';

const presetVersion = (
  createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend/package.json') as { version: string }
).version;

// Deterministic noise, so a sample never trips the stand-in checks by chance on one run only.
function noise(length: number, alphabet: string, seed: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64');

function onePasswordToken(): string {
  let note = 'gate scanner test fixture, not a real service account';
  // The rule wants base64 that ends in `fQ`, i.e. JSON whose length is 1 more than a multiple of 3.
  while (JSON.stringify({ email: 'fixture@gate.test', note }).length % 3 !== 1) note += '.';
  return `ops_${b64({ email: 'fixture@gate.test', note })}`;
}

/** One text per rule that the rule itself reports, built to each rule's documented format. */
const SAMPLES: Record<string, string> = {
  sendgrid: `mail key SG.${noise(22, ALNUM, 1)}.${noise(43, ALNUM, 2)} end`,
  shopify: `shop shpat_${noise(32, ALNUM, 3)} end`,
  groq: `groq gsk_${noise(52, ALNUM, 4)} end`,
  huggingface: `hf hf_${noise(34, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 5)} end`,
  linear: `linear lin_api_${noise(40, ALNUM, 6)} end`,
  notion: `notion ntn_${noise(11, '0123456789', 7)}${noise(35, ALNUM, 8)} end`,
  vault: `vault hvs.${noise(95, ALNUM, 9)} end`,
  vercel: `vercel vcp_${noise(24, ALNUM, 10)} end`,
  databricks: `databricks dapi${noise(32, '0123456789abcdef', 11)} end`,
  docker: `docker dckr_pat_${noise(27, ALNUM, 12)} end`,
  figma: `figma figd_${noise(45, ALNUM, 13)} end`,
  grafana: `grafana glsa_${noise(32, ALNUM, 14)}_${noise(8, '0123456789abcdef', 15)} end`,
  npm: `npm npm_${noise(36, ALNUM, 16)} end`,
  basicauth: `registry https://deploy:${noise(12, ALNUM, 17)}@registry.internal.test/ end`,
  mongodb: `db mongodb+srv://app:${noise(14, ALNUM, 18)}@cluster0.internal.test/reports end`,
  postgres: `db postgresql://app:${noise(14, ALNUM, 24)}@db.internal.test:5432/reports end`,
  mysql: `db jdbc:mysql://app:${noise(14, ALNUM, 25)}@db.internal.test:3306/reports end`,
  slackWebhook: `hook https://hooks.slack.com/services/T0${noise(8, ALNUM, 19)}/B0${noise(8, ALNUM, 20)}/${noise(24, ALNUM, 21)} end`,
  awsAccount: 'aws_account_id = 1234-5678-9012',
  awsKeyId: `key AKIA${noise(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 22)} end`,
  awsKeyIdA3T: `key A3TX${noise(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 23)} end`,
  onePassword: `token ${onePasswordToken()} end`,
};

const fixtureDir = new URL('../../fixtures/scan/', import.meta.url);
const fixtures = readdirSync(fixtureDir)
  .filter((name) => name !== 'expected.json')
  .map((name) => [name, readFileSync(new URL(name, fixtureDir), 'utf8')] as const);

describe('secretlint anchor prefilter', () => {
  it('was derived for exactly the installed preset version and rule list', () => {
    expect(presetVersion, 'preset upgraded: re-read every rule and update workers/scan/secretlint-anchors.ts').toBe(
      ANCHORED_PRESET_VERSION,
    );
    expect(presetRules.map((rule) => rule.meta.id).sort()).toEqual(Object.keys(RULE_ANCHORS).sort());
  });

  it.each(Object.entries(SAMPLES))('lets the %s sample through, and secretlint reports it', async (_name, text) => {
    const unfiltered = await findKnownSecrets(text, false);
    expect(unfiltered.length).toBeGreaterThan(0);
    expect(mayHoldKnownSecret(text)).toBe(true);
    expect(await findKnownSecrets(text)).toEqual(unfiltered);
  });

  it.each(fixtures)('changes nothing for fixture %s', async (_name, text) => {
    expect(await findKnownSecrets(text)).toEqual(await findKnownSecrets(text, false));
  });

  it('reads the AWS key id prefixes only as written, as the rule does', async () => {
    for (const prefix of CASE_SENSITIVE_ANCHORS) {
      const key = `${prefix}${'A3T'.startsWith(prefix) ? 'X' : ''}${noise(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', prefix.length)}`;
      expect(await findKnownSecrets(`key ${key} end`, false), prefix).not.toEqual([]);
      expect(mayHoldKnownSecret(`key ${key} end`), prefix).toBe(true);
      for (const spelled of [key.toLowerCase(), prefix.toLowerCase() + key.slice(prefix.length), prefix[0] + prefix.slice(1).toLowerCase() + key.slice(prefix.length)]) {
        expect(await findKnownSecrets(`key ${spelled} end`, false), spelled).toEqual([]);
        expect(mayHoldKnownSecret(`key ${spelled} end`), spelled).toBe(false);
      }
    }
    expect(mayHoldKnownSecret('Shuyashee yaida kaipa voujeeng noo breark.')).toBe(false);
  });

  it('sends a URI to secretlint only when it could hold a credential, and loses no finding', async () => {
    const plain = ['bench://ingest/4711', 'https://docs.example/guide?page=2#setup', 's3://reports/2026/12/summary.csv', 'file:///srv/notes/a.md', 'ftp://mirror.example/pub/'];
    for (const uri of plain) expect(mayHoldKnownSecret(uri), uri).toBe(false);
    const withCredentials = [
      `https://deploy:${noise(12, ALNUM, 30)}@registry.internal.test/`,
      `ftps://ops:${noise(10, ALNUM, 31)}@files.internal.test/drop`,
      `MongoDB://app:${noise(14, ALNUM, 32)}@cluster0.internal.test/db`,
      `https://HOOKS.SLACK.COM/services/T0${noise(8, ALNUM, 33)}/B0${noise(8, ALNUM, 34)}/${noise(24, ALNUM, 35)}`,
    ];
    for (const uri of withCredentials) {
      expect(mayHoldKnownSecret(uri), uri).toBe(true);
      expect(await findKnownSecrets(uri, false), uri).not.toEqual([]);
    }
    // Any mixture of the pieces: the filtered reading equals secretlint's own.
    const pieces = ['https://', 'mongodb://', 'postgres://', 'mysql://', 'app', ':', noise(12, ALNUM, 36), '@', 'db.internal.test', '/reports', ' ', 'hooks.slack.com/services/T0AB/B0CD/', noise(24, ALNUM, 37)];
    for (let seed = 1; seed <= 300; seed++) {
      let x = seed;
      let text = '';
      for (let k = 0; k < 6; k++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        text += pieces[(x >>> 16) % pieces.length];
      }
      expect(await findKnownSecrets(text), text).toEqual(await findKnownSecrets(text, false));
    }
  });

  it('skips plain prose that no rule could match', () => {
    expect(mayHoldKnownSecret('The queue drains in forty milliseconds and the reviewers are happy.')).toBe(false);
  });
});
