import { useEffect, useState } from 'preact/hooks';
import { rpc } from './rpc.js';

// People as a person knows them: wherever the console shows who signed, decided, wrote or may
// sign, a signed-in person (an `iss|sub` identity) is shown by email, or name, with the exact
// identity on hover. The names are asked of gv.names in batches, once a page load; keys and
// socket peers are shown as their identities. Below reviewer gv.names is refused, and the
// identities stand.

type Names = { email: string | null; name: string | null };

const known = new Map<string, Names | null>();
const asked = new Set<string>();
const listeners = new Set<() => void>();
let refused = false;
let flushing: Promise<void> | null = null;

const isPerson = (identity: string) => identity.includes('|');

async function flush(): Promise<void> {
  while (asked.size > 0 && !refused) {
    const batch = [...asked].slice(0, 200);
    for (const id of batch) asked.delete(id);
    try {
      const answer = await rpc('gv.names', { identities: batch });
      for (const n of answer.names) known.set(n.identity, n.email === null && n.name === null ? null : { email: n.email, name: n.name });
    } catch {
      // Not a reviewer (or the gate is away): identities are shown as they are.
      refused = true;
      for (const id of batch) known.set(id, null);
    }
  }
  flushing = null;
  for (const l of listeners) l();
}

function want(identity: string): void {
  if (refused || known.has(identity) || !isPerson(identity)) return;
  asked.add(identity);
  flushing ??= Promise.resolve().then(flush);
}

/** What a person is called in the console: their email, else their name, else the identity itself. */
export function displayName(identity: string): string {
  const n = known.get(identity);
  return n?.email ?? n?.name ?? identity;
}

export function Person({ identity }: { identity: string | null | undefined }) {
  const [, redraw] = useState(0);
  useEffect(() => {
    const l = () => redraw((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  if (identity === null || identity === undefined) return <span class="who">the deployment</span>;
  want(identity);
  const shown = displayName(identity);
  return (
    <span class={shown === identity ? 'who' : 'who person'} title={identity}>
      {shown}
    </span>
  );
}
