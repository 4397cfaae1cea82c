import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The people file (`people.json` in the home, mode 0600): who may sign in at this gate's
 * own issuer, with a scrypt hash of their password. It holds the secrets and nothing that
 * grants: a person's role and demo flag are journaled (the people table, gv.people), so
 * every grant of authority is a signed event while no password hash ever enters the
 * append-only journal. Only the gate process writes the file; a hand edit is read again
 * on the next lookup.
 */
const personEntry = z.strictObject({
  email: z.string().min(3).max(254),
  iss: z.string().min(1),
  sub: z.string().min(1).max(255),
  password: z.string().startsWith('scrypt$'),
  name: z.string().max(200).optional(),
  created_at: z.number().int(),
  /** When the password was last set after the person was added (changed by them, or reset). */
  password_set_at: z.number().int().optional(),
  /** A one-time reset link waiting to be used (`gate people reset --link`): the sha256 of its token, never the token. */
  reset: z.strictObject({ token_sha256: z.string().regex(/^[0-9a-f]{64}$/), expires_at: z.number().int() }).optional(),
});
export type PersonCredential = z.infer<typeof personEntry>;

const fileShape = z.strictObject({ format: z.literal('gate.people/1'), people: z.array(personEntry) });

/** Emails compare case-insensitively and without surrounding space. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

export const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

export class PeopleFile {
  private people: PersonCredential[] = [];
  private loadedMtime = -1;

  constructor(private readonly path: string) {}

  private refresh(): void {
    const mtime = existsSync(this.path) ? statSync(this.path).mtimeMs : 0;
    if (mtime === this.loadedMtime) return;
    this.people = mtime === 0 ? [] : fileShape.parse(JSON.parse(readFileSync(this.path, 'utf8'))).people;
    this.loadedMtime = mtime;
  }

  private save(): void {
    const text = `${JSON.stringify({ format: 'gate.people/1', people: this.people }, null, 2)}\n`;
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, this.path);
    this.loadedMtime = statSync(this.path).mtimeMs;
  }

  /**
   * The person who signs in here with this email, under whichever issuer URL they were
   * added: every entry of the file is this gate's own, and a person keeps the identity
   * (`iss|sub`) they were added with when the gate's issuer URL later moves.
   */
  localByEmail(email: string): PersonCredential | undefined {
    this.refresh();
    const wanted = normalEmail(email);
    return this.people.find((p) => p.email === wanted);
  }

  /** The person with this subject (a random UUID, one per person), under whichever issuer URL they were added. */
  localBySubject(sub: string): PersonCredential | undefined {
    this.refresh();
    return this.people.find((p) => p.sub === sub);
  }

  bySubject(iss: string, sub: string): PersonCredential | undefined {
    this.refresh();
    return this.people.find((p) => p.iss === iss && p.sub === sub);
  }

  add(entry: PersonCredential): void {
    this.refresh();
    if (this.people.some((p) => p.email === entry.email)) {
      throw new Error(`a person with email ${entry.email} already signs in here`);
    }
    this.people.push(entry);
    this.save();
  }

  /** The person a reset link's token (by its sha256) names, while the link is unused and not expired. */
  byResetToken(tokenSha256: string, now: number): PersonCredential | undefined {
    this.refresh();
    return this.people.find((p) => p.reset !== undefined && p.reset.token_sha256 === tokenSha256 && p.reset.expires_at > now);
  }

  /** A new password hash for iss|sub, keeping who they are (sub, email, name); any reset link waiting is spent. */
  setPassword(iss: string, sub: string, password: string, now: number): void {
    this.change(iss, sub, (p) => {
      const { reset: _spent, ...kept } = p;
      return { ...kept, password, password_set_at: now };
    });
  }

  /** Keeps a reset link's token hash for iss|sub, replacing one that waited. */
  setReset(iss: string, sub: string, tokenSha256: string, expiresAt: number): void {
    this.change(iss, sub, (p) => ({ ...p, reset: { token_sha256: tokenSha256, expires_at: expiresAt } }));
  }

  private change(iss: string, sub: string, edit: (p: PersonCredential) => PersonCredential): void {
    this.refresh();
    const i = this.people.findIndex((p) => p.iss === iss && p.sub === sub);
    if (i < 0) throw new Error(`nobody signs in here as ${iss}|${sub}`);
    this.people[i] = edit(this.people[i]!);
    this.save();
  }

  /** Forgets the sign-in of iss|sub; answers whether there was one. */
  remove(iss: string, sub: string): boolean {
    this.refresh();
    const before = this.people.length;
    this.people = this.people.filter((p) => !(p.iss === iss && p.sub === sub));
    if (this.people.length === before) return false;
    this.save();
    return true;
  }
}
