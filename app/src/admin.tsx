import { useCallback, useEffect, useState } from 'preact/hooks';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer, VerbParams } from '../../src/verbs/verb-types.js';
import { when } from './when.js';

// An admin's desk: API keys (a new key's raw value is shown once, here, never again),
// people and their roles, grants on spaces, the spaces themselves and the store's health.

/** The lists these answers hold, typed by the verbs' own declarations. */
type KeyRow = NonNullable<VerbAnswer<'gv.keys'>['keys']>[number];
type PersonRow = NonNullable<VerbAnswer<'gv.people'>['people']>[number];

const ROLES = ['reader', 'agent', 'reviewer', 'admin'] as const;
type Role = (typeof ROLES)[number];
/** The words typed as capabilities; the gate refuses one that is not a capability, naming it. */
const capabilitiesTyped = (typed: string) => typed.split(/[\s,]+/).filter(Boolean) as VerbParams<'gv.grant'>['grants'][number]['capabilities'];
/** A select's value, which its options made one of ROLES. */
const roleOf = (select: EventTarget | null) => (select as HTMLSelectElement).value as Role;

export function Admin({ onNotice }: { onNotice: (t: string) => void }) {
  const [keys, setKeys] = useState<KeyRow[]>([]);
  const [people, setPeople] = useState<PersonRow[]>([]);
  const [grants, setGrants] = useState<VerbAnswer<'gv.grants'>['grants']>([]);
  const [spaces, setSpaces] = useState<VerbAnswer<'gv.spaces'>['spaces']>([]);
  const [health, setHealth] = useState<VerbAnswer<'gv.health'> | null>(null);
  const [issued, setIssued] = useState<{ key: string; key_id: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [label, setLabel] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const [grant, setGrant] = useState({ principal: '', space: 'main', capabilities: 'read' });

  const load = useCallback(async () => {
    try {
      const [k, p, g, s] = await Promise.all([rpc('gv.keys'), rpc('gv.people'), rpc('gv.grants', {}), rpc('gv.spaces')]);
      setKeys(k.keys ?? []);
      setPeople(p.people ?? []);
      setGrants(g.grants);
      setSpaces(s.spaces);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const act = async <T,>(say: string, f: () => Promise<T>): Promise<T | null> => {
    try {
      const r = await f();
      setError(null);
      // Told once the lists are read again, so the notice never stands beside a list that does not show it yet.
      await load();
      onNotice(say);
      return r;
    } catch (e) {
      setError(e);
      return null;
    }
  };
  const issue = async () => {
    const r = await act('Key issued.', () => rpc('gv.keys', { action: 'issue', role, ...(label ? { label } : {}) }));
    if (r?.key !== undefined && r.key_id !== undefined) setIssued({ key: r.key, key_id: r.key_id });
  };

  return (
    <section aria-label="Admin">
      <h2>Admin</h2>
      <Problem error={error} />
      <h3>API keys</h3>
      {issued && (
        <div class="issued" role="alert">
          <p>
            <strong>Copy this key now: it is shown once and never again.</strong> Whoever holds it acts as {issued.key_id}.
          </p>
          <p>
            <code id="new-key">{issued.key}</code>{' '}
            <button type="button" onClick={() => void navigator.clipboard?.writeText(issued.key).then(() => onNotice('Key copied.'))}>
              Copy
            </button>{' '}
            <button type="button" onClick={() => setIssued(null)}>
              I have stored it
            </button>
          </p>
        </div>
      )}
      <form
        class="filters"
        aria-label="Issue a key"
        onSubmit={(e) => {
          e.preventDefault();
          void issue();
        }}
      >
        <label>
          label <input name="label" value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          role{' '}
          <select name="role" value={role} onChange={(e) => setRole(roleOf(e.target))}>
            {ROLES.map((r) => (
              <option value={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit">Issue a key</button>
      </form>
      <table class="keys">
        <tbody>
          {keys.map((k) => (
            <tr data-key={k.key_id}>
              <td class="id">{k.key_id}</td>
              <td>{k.label ?? ''}</td>
              <td>{k.role}</td>
              <td>{when(k.issued_at)}</td>
              <td>{k.active ? 'active' : k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'expired'}</td>
              <td>
                {k.active && (
                  <button type="button" onClick={() => void act(`Revoked ${k.key_id}.`, () => rpc('gv.keys', { action: 'revoke', key_id: k.key_id, reason: 'revoked from the console' }))}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>People</h3>
      <table class="people">
        <tbody>
          {people.map((p) => (
            <tr>
              <td>{p.source === 'people' ? (p.email ?? p.name ?? '') : ''}</td>
              <td class="id">{p.identity}</td>
              <td>
                {p.source === 'people' ? (
                  <select
                    aria-label={`role of ${p.email ?? p.identity}`}
                    value={p.role}
                    onChange={(e) => void act(`Role changed.`, () => rpc('gv.people', { action: 'assign', iss: p.iss, sub: p.sub, role: roleOf(e.target) }))}
                  >
                    {ROLES.map((r) => (
                      <option value={r}>{r}</option>
                    ))}
                  </select>
                ) : (
                  p.role
                )}
              </td>
              <td>{p.demo ? 'demo' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Grants</h3>
      <table class="grants">
        <tbody>
          {grants.map((g) => (
            <tr>
              <td class="id">{g.principal}</td>
              <td>{g.space}</td>
              <td>{g.capabilities.join(', ')}</td>
              <td>
                <button type="button" onClick={() => void act('Grant revoked.', () => rpc('gv.grant', { action: 'revoke', grants: [{ principal: g.principal, space: g.space, capabilities: g.capabilities }] }))}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        class="filters"
        aria-label="Grant"
        onSubmit={(e) => {
          e.preventDefault();
          void act('Granted.', () =>
            rpc('gv.grant', { action: 'issue', grants: [{ principal: grant.principal, space: grant.space, capabilities: capabilitiesTyped(grant.capabilities) }] }),
          );
        }}
      >
        <label>
          principal <input name="principal" value={grant.principal} onInput={(e) => setGrant({ ...grant, principal: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          space{' '}
          <select name="space" value={grant.space} onChange={(e) => setGrant({ ...grant, space: (e.target as HTMLSelectElement).value })}>
            {spaces.map((s) => (
              <option value={s.name}>{s.name}</option>
            ))}
          </select>
        </label>
        <label>
          capabilities <input name="capabilities" value={grant.capabilities} onInput={(e) => setGrant({ ...grant, capabilities: (e.target as HTMLInputElement).value })} />
        </label>
        <button type="submit">Grant</button>
      </form>
      <h3>Spaces</h3>
      <table class="spaces">
        <tbody>
          {spaces.map((s) => (
            <tr>
              <td>{s.name}</td>
              <td>{s.policy}</td>
              <td class="id">{s.owner}</td>
              <td>{s.artifacts} rows</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Health</h3>
      <p>
        <button type="button" onClick={() => void act('Health checked.', () => rpc('gv.health', {})).then((r) => r && setHealth(r))}>
          Check the store's health
        </button>
      </p>
      {health && (
        <table class="health">
          <tbody>
            {Object.entries(health.checks).map(([name, c]) => (
              <tr>
                <td>{name.replace(/_/g, ' ')}</td>
                <td>
                  {c.computed === false ? `not computed${c.why_not ? `: ${c.why_not}` : ''}` : `${c.at_least ? 'at least ' : ''}${c.count}`}
                </td>
                <td>
                  {c.artifact_ids.slice(0, 5).map((id) => (
                    <a href={`#/row/${encodeURIComponent(id)}`} class="id">
                      {id.slice(0, 16)}{' '}
                    </a>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {health && <p class="hint">{health.rows_checked} promoted rows checked {when(health.checked_at)}.</p>}
    </section>
  );
}
