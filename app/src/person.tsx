import { useEffect, useState } from 'preact/hooks';
import { rpc } from './rpc.js';
import { isKeyIdentity, isPersonIdentity, shownIdentity, type IdentityNames } from '../../src/domain/shown-identity.js';

// People as a person knows them: wherever the console shows who signed, decided, wrote or may
// sign, a signed-in person (an `iss|sub` identity) is shown as "Name <email>" (or the email, or
// the name), and an API key by its label, with the exact identity on hover
// (src/domain/shown-identity.ts). People's names are asked of gv.names in batches; keys' labels
// of one gv.keys list; each answer is kept for the page's life. Below reviewer gv.names is
// refused, and a key gv.keys does not list to this person (a reviewer's list holds keys of a
// lower role within spaces they may read, docs/protocol.md#gvkeys) keeps its identity: those
// identities stand as they are.

const known = new Map<string, IdentityNames | null>();
const asked = new Set<string>();
const listeners = new Set<() => void>();
let namesRefused = false;
let keysAsked = false;
let flushing: Promise<void> | null = null;

async function askNames(batch: string[]): Promise<void> {
  try {
    const answer = await rpc('gv.names', { identities: batch });
    for (const n of answer.names) known.set(n.identity, n.email === null && n.name === null ? null : { email: n.email, name: n.name });
  } catch {
    // Not a reviewer (or the gate is away): identities are shown as they are.
    namesRefused = true;
  }
  for (const id of batch) if (!known.has(id)) known.set(id, null);
}

async function askKeys(): Promise<void> {
  try {
    const answer = await rpc('gv.keys', { action: 'list' });
    if ('keys' in answer) for (const k of answer.keys ?? []) known.set(k.identity, k.label === null ? null : { label: k.label });
  } catch {
    // gv.keys is refused below reviewer: keys are shown by identity.
  }
}

async function flush(): Promise<void> {
  for (;;) {
    const keys = [...asked].filter(isKeyIdentity);
    if (keys.length > 0 && !keysAsked) {
      keysAsked = true;
      await askKeys();
      continue;
    }
    // The list was read once: a key it does not hold is not this person's to read by label.
    for (const k of keys) {
      asked.delete(k);
      if (!known.has(k)) known.set(k, null);
    }
    const people = [...asked].slice(0, 200);
    if (people.length === 0) break;
    for (const id of people) asked.delete(id);
    if (namesRefused) for (const id of people) known.set(id, null);
    else await askNames(people);
  }
  flushing = null;
  for (const l of listeners) l();
}

function want(identity: string): void {
  if (known.has(identity) || asked.has(identity) || !(isPersonIdentity(identity) || isKeyIdentity(identity))) return;
  if (isPersonIdentity(identity) && namesRefused) return;
  asked.add(identity);
  flushing ??= Promise.resolve().then(flush);
}

/** What an identity is called in the console, asking for it if it was not asked yet: "Name <email>", a key's label, else the identity itself. */
export function displayName(identity: string): string {
  want(identity);
  return shownIdentity(identity, known.get(identity));
}

/** Redraws the component using it when names arrive. */
export function useNames(): void {
  const [, redraw] = useState(0);
  useEffect(() => {
    const l = () => redraw((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
}

export function Person({ identity }: { identity: string | null | undefined }) {
  useNames();
  if (identity === null || identity === undefined) return <span class="who">the deployment</span>;
  const shown = displayName(identity);
  const kind = shown === identity ? 'who' : isKeyIdentity(identity) ? 'who key' : 'who person';
  return (
    <span class={kind} title={identity}>
      {shown}
    </span>
  );
}
