/**
 * Known credential formats, found by secretlint's recommended preset rather than by
 * patterns of our own, so the formats stay maintained upstream.
 */
import { createRequire } from 'node:module';
import { lintSource } from '@secretlint/core';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { Finding, Severity } from './finding.js';
import { maskExcerpt } from './mask.js';
import { isStandIn } from './placeholder.js';
import { quietSecretlintProfiler } from './quiet-secretlint-profiler.js';
import { mayHoldKnownSecret } from './secretlint-anchors.js';

type CoreConfig = Parameters<typeof lintSource>[0]['options']['config'];
type CoreMessage = Awaited<ReturnType<typeof lintSource>>['messages'][number];

export const SECRETLINT_PRESET_VERSION: string = (
  createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend/package.json') as { version: string }
).version;

// Lets a text switch secretlint off for the rest of itself with a `secretlint-disable`
// comment: an author's escape hatch in a repository, an evasion in an untrusted claim.
const COMMENT_FILTER_RULE = '@secretlint/secretlint-rule-filter-comments';

// Options the preset leaves off. The AWS rule reports access key ids (AKIA…) and account
// ids only when asked; every other bundled rule offers nothing beyond an allow-list.
const RULE_OPTIONS: Record<string, Record<string, unknown>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

/**
 * The preset's rules registered one by one instead of through the preset itself: a
 * `disabled: true` given inside a preset's rule list is ignored by @secretlint/core 12
 * (only top-level rules are checked for it), so the comment filter could not be turned off
 * any other way. Built once: lintSource reads the config and never mutates it.
 */
const CONFIG: CoreConfig = {
  rules: recommendedRules
    .filter((rule) => rule.meta.id !== COMMENT_FILTER_RULE)
    .map((rule) => ({ id: rule.meta.id, rule, options: RULE_OPTIONS[rule.meta.id] ?? {} })),
};

interface Kind {
  kind: string;
  severity: Severity;
  detail: string;
}

// A known-format token is live until proven otherwise, so it vetoes. Identifiers that are
// not secrets on their own (an access key id, an account id) rank below.
const KINDS: Record<string, Kind> = {
  AWSAccessKeyID: { kind: 'secret.aws-access-key-id', severity: 'high', detail: 'An AWS access key id.' },
  AWSSecretAccessKey: { kind: 'secret.aws-secret-access-key', severity: 'veto', detail: 'An AWS secret access key.' },
  AWSAccountID: { kind: 'secret.aws-account-id', severity: 'low', detail: 'An AWS account id assignment.' },
  PrivateKey: { kind: 'secret.private-key', severity: 'veto', detail: 'A PEM private key block.' },
  PackageJSON_xOauthToken: { kind: 'secret.github-token', severity: 'veto', detail: 'A GitHub OAuth token inside a git URL.' },
  Npmrc_authToken: { kind: 'secret.npm-token', severity: 'veto', detail: 'An npm registry auth token.' },
  NPM_ACCESS_TOKEN: { kind: 'secret.npm-token', severity: 'veto', detail: 'An npm access token.' },
  BasicAuth: { kind: 'secret.basic-auth-url', severity: 'veto', detail: 'A URL carrying a user name and password.' },
  SLACK_TOKEN: { kind: 'secret.slack-token', severity: 'veto', detail: 'A Slack API token.' },
  IncomingWebhook: { kind: 'secret.slack-webhook', severity: 'veto', detail: 'A Slack incoming-webhook URL.' },
  SENDGRID_KEY: { kind: 'secret.sendgrid-api-key', severity: 'veto', detail: 'A SendGrid API key.' },
  SHOPIFY_KEY: { kind: 'secret.shopify-token', severity: 'veto', detail: 'A Shopify access token or app secret.' },
  GITHUB_TOKEN: { kind: 'secret.github-token', severity: 'veto', detail: 'A GitHub access token.' },
  GITLAB_PERSONAL_ACCESS_TOKEN: { kind: 'secret.gitlab-token', severity: 'veto', detail: 'A GitLab personal access token.' },
  GRAFANA_CLOUD_API_TOKEN: { kind: 'secret.grafana-token', severity: 'veto', detail: 'A Grafana Cloud API token.' },
  GRAFANA_SERVICE_ACCOUNT_TOKEN: { kind: 'secret.grafana-token', severity: 'veto', detail: 'A Grafana service account token.' },
  OPENAI_TOKEN: { kind: 'secret.openai-api-key', severity: 'veto', detail: 'An OpenAI API key.' },
  ANTHROPIC_API_KEY: { kind: 'secret.anthropic-api-key', severity: 'veto', detail: 'An Anthropic API key.' },
  GROQ_API_KEY: { kind: 'secret.groq-api-key', severity: 'veto', detail: 'A Groq API key.' },
  HUGGINGFACE_USER_ACCESS_TOKEN: { kind: 'secret.huggingface-token', severity: 'veto', detail: 'A Hugging Face access token.' },
  LINEAR_API_TOKEN: { kind: 'secret.linear-api-key', severity: 'veto', detail: 'A Linear API key.' },
  NOTION_INTEGRATION_TOKEN: { kind: 'secret.notion-token', severity: 'veto', detail: 'A Notion integration token.' },
  OPS_TOKEN: { kind: 'secret.1password-token', severity: 'veto', detail: 'A 1Password service account token.' },
  MongoDBConnection: { kind: 'secret.database-url', severity: 'veto', detail: 'A MongoDB connection string with a password.' },
  MySQLConnection: { kind: 'secret.database-url', severity: 'veto', detail: 'A MySQL connection string with a password.' },
  PostgreSQLConnection: { kind: 'secret.database-url', severity: 'veto', detail: 'A PostgreSQL connection string with a password.' },
  HASHICORP_VAULT_SERVICE_TOKEN: { kind: 'secret.vault-token', severity: 'veto', detail: 'A HashiCorp Vault service token.' },
  HASHICORP_VAULT_BATCH_TOKEN: { kind: 'secret.vault-token', severity: 'veto', detail: 'A HashiCorp Vault batch token.' },
  HASHICORP_VAULT_RECOVERY_TOKEN: { kind: 'secret.vault-token', severity: 'veto', detail: 'A HashiCorp Vault recovery token.' },
  VERCEL_PERSONAL_ACCESS_TOKEN: { kind: 'secret.vercel-token', severity: 'veto', detail: 'A Vercel access token.' },
  VERCEL_INTEGRATION_TOKEN: { kind: 'secret.vercel-token', severity: 'veto', detail: 'A Vercel integration token.' },
  VERCEL_APP_ACCESS_TOKEN: { kind: 'secret.vercel-token', severity: 'veto', detail: 'A Vercel app access token.' },
  VERCEL_APP_REFRESH_TOKEN: { kind: 'secret.vercel-token', severity: 'veto', detail: 'A Vercel app refresh token.' },
  VERCEL_AI_GATEWAY_API_KEY: { kind: 'secret.vercel-token', severity: 'veto', detail: 'A Vercel AI Gateway API key.' },
  DATABRICKS_PERSONAL_ACCESS_TOKEN: { kind: 'secret.databricks-token', severity: 'veto', detail: 'A Databricks access token.' },
  DOCKER_PERSONAL_ACCESS_TOKEN: { kind: 'secret.docker-token', severity: 'veto', detail: 'A Docker personal access token.' },
  FIGMA_PERSONAL_ACCESS_TOKEN: { kind: 'secret.figma-token', severity: 'veto', detail: 'A Figma personal access token.' },
};

function kindOf(message: CoreMessage): Kind {
  const known = KINDS[message.messageId];
  if (known) return known;
  // A rule added to the preset after this table was written still reports a credential.
  const rule = message.ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return { kind: `secret.${rule}`, severity: 'veto', detail: `A credential reported by the secretlint ${rule} rule.` };
}

const VALUE_KEYS = ['KEY', 'TOKEN', 'ID', 'URI', 'URL', 'CREDENTIAL'] as const;

function reportedValue(message: CoreMessage): string | undefined {
  const data = message.data as Record<string, unknown> | undefined;
  for (const key of VALUE_KEYS) {
    const value = data?.[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/**
 * Where the reported value really lies. Rules that report a capture group (the AWS secret
 * key, npm and x-oauth tokens) pair the group's length with the whole match's start, so
 * their range points at the assignment's name; the value is then looked up from there.
 */
function locate(content: string, message: CoreMessage): [number, number] {
  const [start, end] = message.range;
  const value = reportedValue(message);
  if (value === undefined || content.slice(start, end) === value) return [start, end];
  const at = content.indexOf(value, start);
  return at === -1 ? [start, end] : [at, at + value.length];
}

/** `skipUnanchored: false` runs secretlint even where no rule could match (for tests). */
export async function findKnownSecrets(text: string, skipUnanchored = true): Promise<Finding[]> {
  if (skipUnanchored && !mayHoldKnownSecret(text)) return [];
  quietSecretlintProfiler();
  // secretlint drops a leading byte-order mark before matching, which would shift every
  // range one unit left of the text we were given.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const content = shift ? text.slice(1) : text;
  const result = await lintSource({
    source: { content, filePath: '', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, locale: 'en', noPhysicFilePath: true },
  });
  const findings: Finding[] = [];
  for (const message of result.messages) {
    const { kind, severity, detail } = kindOf(message);
    const [start, end] = locate(content, message);
    const span = content.slice(start, end);
    if (kind !== 'secret.private-key' && isStandIn(span)) continue;
    findings.push({ kind, severity, detail, start: start + shift, end: end + shift, excerpt: maskExcerpt(span) });
  }
  return findings;
}
