import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { BearerAuth, CredentialError } from '../../src/auth/bearer.js';
import { mintApiKey } from '../../src/credentials/api-keys.js';
import { ApiKeyReducer, apiKeyTables } from '../../src/projections/api-keys.js';
import { ApiKeyReads } from '../../src/projections/api-key-reads.js';
import { peopleTables } from '../../src/projections/people.js';
import { PeopleReads } from '../../src/projections/people-reads.js';
import type { JournalEvent } from '../../src/forms/event.js';
import { ViewChanges } from '../../src/journal/view-changes.js';

function keyStore() {
  const db = new Database(':memory:');
  db.exec(apiKeyTables('main'));
  db.exec(peopleTables('main'));
  const reducer = new ApiKeyReducer(db, 'main');
  // As the journal does: each event applied is counted, so a key read kept before it is read again.
  const changes = new ViewChanges();
  let seq = 0;
  const apply = (type: string, data: Record<string, unknown>, ts = 1_000) => {
    reducer.apply({ v: 1, seq: ++seq, type, ts, prev: null, by: 'uid:0', data, event_id: String(seq), sig: '' } as JournalEvent);
    changes.applied(type);
  };
  // The read models the bearer reads through, as the store holds them.
  const reads = { apiKeys: new ApiKeyReads(db), people: new PeopleReads(db) };
  return { db, reads, changes, apply };
}

const kindOf = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof CredentialError) return e.kind;
    throw e;
  }
  return 'accepted';
};

describe('API key bearer credentials, with an injected clock', () => {
  it('a key past its expires_at is 401 expired; before it, the key is its own identity and role', async () => {
    const { reads, changes, apply } = keyStore();
    const k = mintApiKey();
    apply('apikey-issued', { key_id: k.keyId, key_hash: k.hash, role: 'agent', expires_at: 5_000, scope: null });
    let now = 4_999;
    const auth = new BearerAuth(reads, changes, { now: () => now }, 'test-deployment');
    const caller = await auth.callerOf(`Bearer ${k.raw}`, 'http');
    expect(caller).toMatchObject({ identity: `key:${k.keyId}`, role: 'agent', kind: 'program', scope: null });
    now = 5_000;
    expect(await kindOf(() => auth.callerOf(`Bearer ${k.raw}`, 'http'))).toBe('expired');
  });

  it('the key format is gk_ + 43 base64url characters, only its sha256 is stored, key_id is 12 hex of it', () => {
    const k = mintApiKey();
    expect(k.raw).toMatch(/^gk_[A-Za-z0-9_-]{43}$/);
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(k.keyId).toBe(k.hash.slice(0, 12));
    const { db, apply } = keyStore();
    apply('apikey-issued', { key_id: k.keyId, key_hash: k.hash, role: 'reader', expires_at: null, scope: null });
    expect(JSON.stringify(db.prepare('SELECT * FROM api_keys').all())).not.toContain(k.raw.slice(3));
  });

  it('a scope events key is marked so the dispatcher can refuse everything but gv.events', async () => {
    const { reads, changes, apply } = keyStore();
    const k = mintApiKey();
    apply('apikey-issued', { key_id: k.keyId, key_hash: k.hash, role: 'reviewer', expires_at: null, scope: 'events' });
    expect((await new BearerAuth(reads, changes, { now: () => 0 }, 'test-deployment').callerOf(`Bearer ${k.raw}`, 'http')).scope).toBe('events');
  });

  it('missing, malformed, unknown and revoked credentials each have their kind', async () => {
    const { reads, changes, apply } = keyStore();
    const k = mintApiKey();
    apply('apikey-issued', { key_id: k.keyId, key_hash: k.hash, role: 'agent', expires_at: null, scope: null });
    const auth = new BearerAuth(reads, changes, { now: () => 0 }, 'test-deployment');
    expect(await kindOf(() => auth.callerOf(undefined, 'http'))).toBe('missing');
    expect(await kindOf(() => auth.callerOf('Token abc', 'http'))).toBe('malformed');
    expect(await kindOf(() => auth.callerOf(`Bearer ${mintApiKey().raw}`, 'http'))).toBe('signature');
    expect(await kindOf(() => auth.callerOf(`Bearer ${k.raw}`, 'http'))).toBe('accepted');
    apply('apikey-revoked', { key_id: k.keyId, reason: 'lost' });
    expect(await kindOf(() => auth.callerOf(`Bearer ${k.raw}`, 'http'))).toBe('signature');
  });
});
