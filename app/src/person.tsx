import { useEffect, useState } from 'preact/hooks';
import { rpc } from './rpc.js';
import { isKeyIdentity, isPersonIdentity, shownIdentity, type IdentityNames } from '../../src/domain/shown-identity.js';

// People as a person knows them: wherever the console shows who signed, decided, wrote or may
// sign, a signed-in person (an `iss|sub` identity) is shown as "Name <email>" (or the email, or
// the name), and an API key by its label, with the exact identity on hover
// (src/domain/shown-identity.ts). People's names and the labels of keys that wrote a row are
// asked of gv.names in batches; a key it leaves unlabelled (one that wrote nothing: a reviewer
// key that only signed) is looked up in one gv.keys list, which holds the keys this person may
// manage (docs/protocol.md#gvkeys); each answer is kept for the page's life. Below reviewer
// gv.names and gv.keys are refused: identities stand as they are.

const known = new Map<string, IdentityNames | null>();
const asked = new Set<string>();
const listeners = new Set<() => void>();
let namesRefused = false;
let keysAsked = false;
let flushing: Promise<void> | null = null;

async function askNames(batch: string[]): Promise<void> {
  try {
    const answer = await rpc('gv.names', { identities: batch });
    for (const n of answer.names) known.set(n.identity, n.email === null && n.name === null && n.label === null ? null : { email: n.email, name: n.name, label: n.label });
  } catch {
    // Not a reviewer (or the gate is away): identities are shown as they are.
    namesRefused = true;
  }
  for (const id of batch) if (!known.has(id)) known.set(id, null);
}

async function askKeys(): Promise<void> {
  try {
    const answer = await rpc('gv.keys', { action: 'list' });
    if ('keys' in answer) for (const k of answer.keys ?? []) if (k.label !== null) known.set(k.identity, { label: k.label });
  } catch {
    // gv.keys is refused below reviewer: keys are shown by identity.
  }
}

async function flush(): Promise<void> {
  for (;;) {
    const batch = [...asked].slice(0, 200);
    if (batch.length === 0) break;
    for (const id of batch) asked.delete(id);
    if (namesRefused) for (const id of batch) known.set(id, null);
    else await askNames(batch);
    // A key gv.names did not label may be one this person manages: the list is read once a page.
    if (!keysAsked && batch.some((id) => isKeyIdentity(id) && known.get(id) === null)) {
      keysAsked = true;
      await askKeys();
    }
  }
  flushing = null;
  for (const l of listeners) l();
}

function want(identity: string): void {
  if (known.has(identity) || asked.has(identity) || !(isPersonIdentity(identity) || isKeyIdentity(identity))) return;
  if (namesRefused && keysAsked) return;
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
