import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { KEYS_PROMOTE, ROOT, tempHome } from '../harness/gate-process.js';
import { InProcessServer } from '../harness/in-process-server.js';
import { gateCommand } from '../harness/gate-command.js';
import { authorizeFields, form, pkcePair } from '../harness/sign-in.js';
import { HOME_FORMAT, readHomeRecord } from '../../src/store/home-record.js';
import { VIEW_SCHEMA_VERSION } from '../../src/projections/view-version.js';

/**
 * Homes made by earlier builds (test/fixtures/homes/, one per view schema main has had; the
 * README there says which commit made each and how) open with this build: the views replay,
 * the journal verifies, gv.rebuild finds the views equal, and what the earlier build held is
 * there (its claims, the promoted one served, the grant and the claim written under it, the
 * person who signs in with the same password). A home a newer build wrote is refused, untouched.
 *
 * Each home is opened by `serve()` in this process (InProcessServer: the same start as `gate
 * serve`, its HTTP surface and socket on loopback) rather than a `gate serve` child each, and
 * checked offline by the `gate verify` command after its stop; the refusal of a newer home is
 * the CLI's exit and message, so that one runs `gate serve` itself.
 */
/** What every test gate runs under (KEYS_PROMOTE), as settings. */
const SETTINGS = { 'spaces.main_policy': KEYS_PROMOTE['GATE_SPACES_MAIN_POLICY'], 'review.quorum_profile': KEYS_PROMOTE['GATE_REVIEW_QUORUM_PROFILE'] };
const FIXTURES = join(ROOT, 'test', 'fixtures', 'homes');
const fixtures = readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, 'made.json'))).sort();

interface Made {
  commit: string;
  deployment_id: string;
  steps: {
    claims: string[] | null;
    promoted: string | null;
    grant: { principal: string; space: string; artifact_id: string } | null;
    person: { email: string; password: string; role: string; identity: string } | null;
  };
}

/** A fixture unpacked into a new home, as the earlier build left it. */
function unpack(name: string): string {
  const home = tempHome();
  mkdirSync(home, { recursive: true });
  for (const file of readdirSync(join(FIXTURES, name))) {
    if (file === 'made.json') continue;
    if (file.endsWith('.gz')) writeFileSync(join(home, file.slice(0, -3)), gunzipSync(readFileSync(join(FIXTURES, name, file))), { mode: 0o600 });
    else copyFileSync(join(FIXTURES, name, file), join(home, file));
  }
  return home;
}

describe('homes made by earlier builds', () => {
  it('there is one for every view schema main has had, up to the one before this build', () => {
    // Every VIEW_SCHEMA_VERSION main's first-parent history has held (12 only ever lived on a branch).
    expect(fixtures.map((f) => Number(/^views-(\d+)-/.exec(f)?.[1]))).toEqual([2, 3, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19]);
  });

  for (const name of fixtures) {
    it(`${name}: opens, replays its views, verifies, and keeps what it held`, async () => {
      const made = JSON.parse(readFileSync(join(FIXTURES, name, 'made.json'), 'utf8')) as Made;
      const home = unpack(name);
      const gate = await InProcessServer.start(SETTINGS, home);
      try {
        expect(gate.gate.deployment.deploymentId).toBe(made.deployment_id);
        expect(gate.log.join('\n')).toMatch(new RegExp(`views rebuilt from \\d+ journal events for view schema ${VIEW_SCHEMA_VERSION}`));
        expect((await gate.socket('gv.audit_chain')).result).toMatchObject({ ok: true, deployment_id: made.deployment_id, tree: 'agrees' });
        const rebuilt = (await gate.socket('gv.rebuild')).result;
        expect(rebuilt.equal, JSON.stringify(rebuilt.tables)).toBe(true);
        for (const id of made.steps.claims ?? []) expect((await gate.socket('gv.status', { artifact_id: id })).result?.artifact_id).toBe(id);
        if (made.steps.promoted !== null) {
          expect((await gate.socket('gv.status', { artifact_id: made.steps.promoted })).result.state).toBe('ACTIVE');
          const reader = await gate.issueKey('reader');
          const recalled = (await gate.rpc(reader.key, 'gv.recall', { space: 'main', query: 'which Node do builds use' })).result;
          expect(recalled.hits.map((r: { artifact_id: string }) => r.artifact_id)).toContain(made.steps.promoted);
        }
        if (made.steps.grant !== null) {
          const { principal, space, artifact_id } = made.steps.grant;
          expect((await gate.socket('gv.grants', { principal })).result.grants).toEqual([expect.objectContaining({ space, capabilities: ['read', 'contribute'] })]);
          expect((await gate.socket('gv.status', { artifact_id })).result.space).toBe(space);
        }
        if (made.steps.person !== null) {
          const { email, password, role, identity } = made.steps.person;
          const people = (await gate.socket('gv.people')).result.people;
          expect(people).toEqual(expect.arrayContaining([expect.objectContaining({ identity, role, signs_in_here: true })]));
          const fields = authorizeFields(gate, pkcePair().challenge);
          expect((await gate.http('POST', '/oauth/authorize', form({ ...fields, email, password }))).status).toBe(303);
        }
      } finally {
        await gate.stop();
      }
      const verified = await gateCommand(['verify', '--home', home]);
      expect(verified.code, verified.out).toBe(0);
      const db = new Database(join(home, 'gate.db'), { readonly: true });
      const record = readHomeRecord(db);
      const placed = db.prepare("SELECT body FROM journal WHERE type = 'home-placed'").pluck().all() as string[];
      db.close();
      expect(record).toMatchObject({ format: HOME_FORMAT, viewSchema: VIEW_SCHEMA_VERSION, place: { path: home } });
      expect(placed.map((b) => JSON.parse(b).data.reason)).toEqual(['recorded']);
    }, 120_000);
  }
});

describe('a home a newer build wrote', () => {
  const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

  it('is refused, untouched, naming what it needs: a newer view schema, or a newer home format', async () => {
    const home = unpack(fixtures.at(-1)!);
    const opened = await InProcessServer.start(SETTINGS, home);
    await opened.stop();
    const db = new Database(join(home, 'gate.db'));
    db.pragma(`user_version = ${VIEW_SCHEMA_VERSION + 1}`);
    db.close();
    const before = digest(join(home, 'gate.db'));
    const refused = await gateCommand(['serve', '--home', home, '--port', '0']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`this home needs a newer gate: it was last opened by gate 0.1.0, which wrote view schema ${VIEW_SCHEMA_VERSION + 1}`);
    expect(refused.err).toContain(`reads home format ${HOME_FORMAT} and view schema ${VIEW_SCHEMA_VERSION} at most`);
    expect(digest(join(home, 'gate.db'))).toBe(before);

    const again = new Database(join(home, 'gate.db'));
    again.pragma(`user_version = ${VIEW_SCHEMA_VERSION}`);
    again.prepare("UPDATE home_record SET value = ? WHERE key = 'format'").run(String(HOME_FORMAT + 1));
    again.close();
    const format = await gateCommand(['serve', '--home', home, '--port', '0']);
    expect(format.code).toBe(1);
    expect(format.err).toContain(`which wrote home format ${HOME_FORMAT + 1};`);
    // verify still reads it: checking a journal writes nothing.
    expect((await gateCommand(['verify', '--home', home])).code).toBe(0);
  }, 120_000);
});
