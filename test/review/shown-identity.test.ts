import { describe, expect, it } from 'vitest';
import { shownIdentity, shownWithIdentity } from '../../src/domain/shown-identity.js';
import { submissionNames } from '../../src/forms/submission-people.js';

/**
 * The words a person reads for an identity (docs/console.md "People by name"): a person by
 * "Name <email>", else the email, else the name; a key by its label, marked as a key; anything
 * else, or anything nothing is known of, as the identity itself.
 */
const alice = 'http://127.0.0.1:18480|ad106776-0f0e-4c1e-9a57-3f4a0c1d2e3f';

describe('shownIdentity', () => {
  it('shows a person as "Name <email>", or the email, or the name', () => {
    expect(shownIdentity(alice, { email: 'alice@example.com', name: 'Alice Liddell' })).toBe('Alice Liddell <alice@example.com>');
    expect(shownIdentity(alice, { email: 'alice@example.com', name: null })).toBe('alice@example.com');
    expect(shownIdentity(alice, { email: null, name: 'Alice Liddell' })).toBe('Alice Liddell');
    expect(shownIdentity(alice, { email: ' ', name: '' })).toBe(alice);
  });

  it('shows a key by its label, marked as a key, and keeps the identity of a key without one', () => {
    expect(shownIdentity('key:e199632482d1', { label: 'writer' })).toBe('writer (key)');
    expect(shownIdentity('key:e199632482d1', { label: null })).toBe('key:e199632482d1');
    // An email is no key's name, and a label no person's.
    expect(shownIdentity('key:e199632482d1', { email: 'someone@example.com' })).toBe('key:e199632482d1');
    expect(shownIdentity(alice, { label: 'writer' })).toBe(alice);
  });

  it('keeps identities nothing is known of, and those of programs and the socket, as they are', () => {
    expect(shownIdentity(alice, undefined)).toBe(alice);
    expect(shownIdentity(alice, null)).toBe(alice);
    expect(shownIdentity('uid:1000', { email: 'op@example.com', name: 'Operator' })).toBe('uid:1000');
  });

  it('draws the hidden characters a name holds instead of passing them on', () => {
    expect(shownIdentity(alice, { name: 'Alice\u202Eecila', email: null })).toBe('Alice⟨U+202E⟩ecila');
  });

  it('puts the identity beside the words on a line with no hover, and nothing twice', () => {
    expect(shownWithIdentity(alice, { email: 'alice@example.com' })).toBe(`alice@example.com (${alice})`);
    expect(shownWithIdentity(alice, undefined)).toBe(alice);
  });
});

describe('submissionNames', () => {
  it("reads the emails a submission states for the member's people, and nothing else", () => {
    const names = submissionNames([
      { identity: alice, email: 'alice@example.com', email_verified: false },
      { identity: 'key:e199632482d1' },
      null,
      'not a person',
    ]);
    expect([...names]).toEqual([[alice, { email: 'alice@example.com' }]]);
    expect(submissionNames(undefined).size).toBe(0);
  });
});
