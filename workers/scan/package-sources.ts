/**
 * Installs that fetch code from somewhere nobody reviewed: a package one letter off a
 * well-known one (`reqeusts`, `lodahs`, `python-dateutils`), an index or registry that is not
 * the public one (`--index-url http://pypi.mirror-patched.example/simple`, `--registry …`),
 * and settings that send every later download or request through another host (an
 * `HTTPS_PROXY`, a registry or index set in a config). A memory telling agents to "always
 * install X from our mirror" is how a supply-chain attack gets into every build that reads it.
 *
 * The well-known names are the most downloaded packages of PyPI and npm; a name within one
 * edit (a letter swapped, added, dropped or changed) of one of them, and not itself one of
 * them, is a look-alike. Private registries are real, so an index other than the public one
 * ranks medium: held for a person who knows whether it is theirs.
 */
import type { Finding } from './finding.js';
import { maskExcerpt } from './mask.js';
import { mentionContext } from './mention-context.js';
import { cueGate } from './literal-cues.js';

const PYPI = [
  'requests', 'numpy', 'pandas', 'urllib3', 'setuptools', 'colorama', 'python-dateutil', 'certifi', 'idna', 'charset-normalizer', 'six', 'boto3',
  'botocore', 'pyyaml', 'typing-extensions', 'packaging', 'pip', 'wheel', 'cryptography', 'jinja2', 'markupsafe', 'attrs', 'click', 'pytest',
  'protobuf', 'pydantic', 'flask', 'django', 'scipy', 'matplotlib', 'pillow', 'tqdm', 'beautifulsoup4', 'lxml', 'sqlalchemy', 'psycopg2',
  'psycopg2-binary', 'redis', 'celery', 'fastapi', 'uvicorn', 'httpx', 'aiohttp', 'scikit-learn', 'tensorflow', 'torch', 'transformers',
  'openai', 'anthropic', 'selenium', 'paramiko', 'pyjwt', 'jsonschema', 'pytz', 'tzdata', 'filelock', 'virtualenv', 'docutils', 'rsa',
  'pyasn1', 'cffi', 'pycparser', 'grpcio', 'google-auth', 'websockets', 'pymongo', 'pyparsing', 'pygments', 'rich', 'toml', 'tomli',
  'black', 'mypy', 'flake8', 'isort', 'coverage', 'keras', 'nltk', 'opencv-python', 'seaborn', 'plotly', 'gunicorn', 'werkzeug',
];
const NPM = [
  'lodash', 'react', 'react-dom', 'express', 'axios', 'chalk', 'commander', 'debug', 'moment', 'request', 'tslib', 'typescript', 'webpack',
  'vue', 'next', 'jquery', 'underscore', 'async', 'uuid', 'dotenv', 'yargs', 'glob', 'minimist', 'semver', 'mkdirp', 'rimraf', 'fs-extra',
  'body-parser', 'cors', 'jsonwebtoken', 'bcrypt', 'mongoose', 'redux', 'eslint', 'prettier', 'jest', 'mocha', 'babel-core', 'core-js',
  'rxjs', 'classnames', 'prop-types', 'bluebird', 'node-fetch', 'ws', 'socket.io', 'colors', 'inquirer', 'ora', 'zod', 'vite', 'esbuild',
  'nodemon', 'cross-env', 'pg', 'mysql', 'mysql2', 'sqlite3', 'sharp', 'dayjs', 'date-fns', 'qs', 'cheerio', 'puppeteer', 'electron',
  'angular', 'svelte', 'graphql', 'apollo-server', 'passport', 'helmet', 'morgan', 'winston', 'pino', 'nanoid', 'immer', 'ramda',
];
/** Real packages one edit from a well-known one: not look-alikes. */
const REAL_NEIGHBOURS = ['preact', 'tslint', 'boto', 'psycopg', 'scapy', 'color', 'dotenvx', 'torchx', 'pandas-ta', 'requests-html', 'mysqlx', 'graphql-js', 'vuex', 'nuxt', 'jsdom', 'pytest-xdist'];
const WELL_KNOWN = new Set([...PYPI, ...NPM, ...REAL_NEIGHBOURS]);

/** Distance at most one between a and b, counting a swap of neighbours as one (Damerau). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/** The well-known package `name` looks like, or null. Short names are left alone: one edit from "pg" is half the alphabet. */
export function lookAlikeOf(name: string): string | null {
  const n = name.toLowerCase().replace(/_/g, '-');
  if (n.length < 5 || WELL_KNOWN.has(n)) return null;
  for (const known of WELL_KNOWN) if (known.length >= 5 && withinOneEdit(n, known)) return known;
  return null;
}

const INSTALL = /\b(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|pipx|poetry|npm|pnpm|yarn|bun|gem)\s+(?:install|add|i)\b([^\n;&|`)]{0,300})/gi;
const INDEX_FLAG = /(?:^|\s)(?:--index-url|-i|--extra-index-url|--registry|--source|--index|--find-links|-f)(?:\s+|=)["']?([^\s"']+)/gi;
const PUBLIC_INDEXES = /^(?:https:\/\/)?(?:pypi\.org|pypi\.python\.org|files\.pythonhosted\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|rubygems\.org|index\.crates\.io|crates\.io|download\.pytorch\.org)(?:[/:]|$)/i;
const FLAG_TAKES_VALUE = /^(?:-i|--index-url|--extra-index-url|--registry|--source|--index|-r|--requirement|-c|--constraint|-f|--find-links|--target|-t|--prefix|--root|--cache-dir|--tag|--python|-e|--editable)$/;
/** Settings that route later traffic or downloads through another host. */
const REROUTE =
  /\b(?:(?:https?|all|ftp)_proxy|npm_config_registry|pip_index_url|pip_extra_index_url)\s*=\s*["']?https?:\/\/(?!localhost\b|127\.|\[::1\])[^\s"']+|\b(?:npm|yarn|pnpm)\s+config\s+set\s+registry\s+["']?(?!https:\/\/registry\.npmjs\.org)https?:\/\/\S+|\bpip3?\s+config\s+set\s+global\.(?:extra-)?index-url\s+(?!https:\/\/pypi\.org)\S+|\bgit\s+config\s+(?:--global\s+)?url\.[^\s]+\.insteadof\b/gi;

/** Words one of which every match of INSTALL and REROUTE holds: a text with none is not read for them (literal-cues.ts). */
const SOURCES_GATE = cueGate(['\\bpip', '\\bpoetry', '\\bnpm', '\\bpnpm', '\\byarn', '\\bbun', '\\bgem', '_proxy', 'git config'], [INSTALL, REROUTE]);

const STANDING = /\b(?:every|always|all|each|whenever|from\s+now\s+on|you|your|agents?|assistant)\b/i;

export function findPackageSources(text: string): Finding[] {
  if (!SOURCES_GATE.mayOccurIn(text)) return [];
  const found: Array<{ kind: string; detail: string; start: number; end: number; severity: 'medium' | 'high' }> = [];
  for (const m of text.matchAll(INSTALL)) {
    const args = m[1]!;
    const start = m.index;
    const end = m.index + m[0].length;
    for (const flag of args.matchAll(INDEX_FLAG)) {
      const url = flag[1]!;
      if (PUBLIC_INDEXES.test(url) || /^(?:\.|\/|file:)/.test(url)) continue;
      found.push({
        kind: 'executable.untrusted-package-source',
        detail: `Installs packages from an index or registry other than the public one${url.startsWith('http:') ? ', over plain http' : ''}: what it serves was reviewed by nobody here.`,
        start,
        end,
        severity: 'medium',
      });
      break;
    }
    const words = args.trim().split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (word.startsWith('-')) {
        if (FLAG_TAKES_VALUE.test(word.split('=')[0]!) && !word.includes('=')) i++;
        continue;
      }
      // A name without its version, extras or scope: requests==2.0, pkg[extra], @scope/pkg@1.
      const name = word.replace(/^["'(]+|["'),.;:]+$/g, '').replace(/\[.*$/, '').replace(/(?:[=<>!~]=?|@(?=[\d^~*<>=])).*$/, '').replace(/^@[^/]+\//, '');
      if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) break;
      const like = lookAlikeOf(name);
      if (like === null) continue;
      found.push({
        kind: 'executable.look-alike-package',
        detail: `Installs a package named one letter away from the well-known ${like}: a look-alike is how malicious packages get installed.`,
        start,
        end,
        severity: 'high',
      });
      break;
    }
  }
  for (const m of text.matchAll(REROUTE)) {
    // An operator's own proxy line ("export HTTPS_PROXY=…") is configuration; a standing order
    // to route every shell or agent through a host is the attack.
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const lineEnd = text.indexOf('\n', m.index + m[0].length);
    if (!STANDING.test(text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd))) continue;
    found.push({
      kind: 'injection.tool-manipulation',
      detail: 'Sends later downloads or web traffic through another host (a proxy, registry or index setting): whoever runs it hands that host every request.',
      start: m.index,
      end: m.index + m[0].length,
      severity: 'medium',
    });
  }
  if (found.length === 0) return [];
  const context = mentionContext(text);
  return found.map((f) => ({ kind: f.kind, detail: f.detail, start: f.start, end: f.end, severity: context.severity(f.severity, f.start, f.end), excerpt: maskExcerpt(text.slice(f.start, f.end)) }));
}
