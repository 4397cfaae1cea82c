import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A person's sign-in at an organization, kept between `gate org` commands (docs/organization.md
 * "People at the organization from the terminal"): the access token, bound to the organization
 * it was taken for (its address and its deployment id) and to the issuer the person named or
 * confirmed, with who signed in as the ID token said (email, name) and the identity the
 * organization took them for.
 */
export interface KeptOrgSession {
  /** The organization gate's address, without a trailing slash: the key it is kept under. */
  url: string;
  /** The organization's deployment id when it was kept: a token is never sent to another organization answering at that address. */
  org: string;
  issuer: string;
  access_token: string;
  /** When the token ends (ms since the epoch): its `exp`, else the provider's `expires_in` from when it was issued. */
  expires_at: number;
  /** `iss|sub`, as the organization's gv.describe said it. */
  identity: string;
  email: string | null;
  name: string | null;
}

interface SessionsFile {
  sessions: Record<string, KeptOrgSession>;
}

/**
 * Where the sessions are kept: `$XDG_STATE_HOME/gate/org-sessions.json`, else
 * `~/.local/state/gate/org-sessions.json` (the XDG base directories' place for state a
 * program keeps between runs), the directory 0700 and the file 0600: the person's account
 * alone reads it. Beside `gate runner`'s state (`~/.local/state/gate-runner`), never in a
 * gate's home: the person reviewing at an organization may have none.
 */
export function keptSessionsFile(): string {
  const state = process.env['XDG_STATE_HOME'];
  const base = state !== undefined && state.startsWith('/') ? state : join(homedir(), '.local', 'state');
  return join(base, 'gate', 'org-sessions.json');
}

/** The file's sessions; none when there is no file, or one that is not the person's alone or not readable (the next sign-in kept replaces it with one that is). */
function readSessions(file: string): SessionsFile {
  let text: string;
  try {
    // A file others may read, or another account's, is not trusted to hold the person's own sign-in: it is not used.
    const stat = statSync(file);
    if ((stat.mode & 0o077) !== 0 || (process.getuid !== undefined && stat.uid !== process.getuid())) return { sessions: {} };
    text = readFileSync(file, 'utf8');
  } catch {
    return { sessions: {} };
  }
  try {
    const parsed = JSON.parse(text) as Partial<SessionsFile>;
    return { sessions: typeof parsed.sessions === 'object' && parsed.sessions !== null ? parsed.sessions : {} };
  } catch {
    return { sessions: {} };
  }
}

/** Writes the whole file again, 0600 in a 0700 directory, by rename so a reader never sees half of it. */
function writeSessions(file: string, content: SessionsFile): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (Object.keys(content.sessions).length === 0) {
    rmSync(file, { force: true });
    return;
  }
  const part = `${file}.${randomBytes(6).toString('hex')}.part`;
  writeFileSync(part, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(part, 0o600);
  renameSync(part, file);
}

const isSession = (s: unknown): s is KeptOrgSession => {
  const k = s as Partial<KeptOrgSession> | null;
  return (
    typeof k === 'object' && k !== null &&
    typeof k.url === 'string' && typeof k.org === 'string' && typeof k.issuer === 'string' &&
    typeof k.access_token === 'string' && typeof k.expires_at === 'number' && typeof k.identity === 'string'
  );
};

/** The session kept for the organization at `url`, if any. */
export function keptSession(url: string): KeptOrgSession | undefined {
  const found = readSessions(keptSessionsFile()).sessions[url];
  return isSession(found) ? { ...found, email: found.email ?? null, name: found.name ?? null } : undefined;
}

/** Every session kept, one per organization address. */
export function keptSessions(): KeptOrgSession[] {
  return Object.values(readSessions(keptSessionsFile()).sessions).filter(isSession);
}

/** Keeps `session` for its organization, in place of any kept before. */
export function keepSession(session: KeptOrgSession): void {
  const file = keptSessionsFile();
  const content = readSessions(file);
  content.sessions[session.url] = session;
  writeSessions(file, content);
}

/** Forgets the session kept for the organization at `url` (the file goes once it holds none). */
export function forgetSession(url: string): void {
  const file = keptSessionsFile();
  const content = readSessions(file);
  if (!(url in content.sessions)) return;
  delete content.sessions[url];
  writeSessions(file, content);
}
