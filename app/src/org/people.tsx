import { useEffect, useState } from 'preact/hooks';
import { Problem } from '../problem.js';
import { orgRpc, type OrgVerbAnswer } from './org-rpc.js';
import { whenIso } from '../when.js';

type Person = OrgVerbAnswer<'gv.org_people'>['people'][number];

/** The org's people and their roles (an admin's read, as the gate's gv.people); assigning stays `gate org people assign`. */
export function OrgPeople() {
  const [people, setPeople] = useState<Person[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void orgRpc('gv.org_people').then((a) => setPeople(a.people), setError), []);
  if (error !== null) return <Problem error={error} />;
  if (people === null) return <p class="hint">Reading the people…</p>;
  return (
    <section class="org-people">
      <h2>People</h2>
      <p class="hint">Roles are given with gate org people assign --iss ISSUER --sub SUBJECT --role reviewer|admin; [auth].admins names admins from the config.</p>
      <table class="people">
        <thead>
          <tr>
            <th>Identity</th>
            <th>Role</th>
            <th>From</th>
            <th>Assigned by</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr data-identity={p.identity}>
              <td class="id">{p.identity}</td>
              <td class="role">{p.role}</td>
              <td>{p.source === 'config' ? '[auth].admins' : 'people table'}</td>
              <td class="id">{p.assigned_by ?? ''}</td>
              <td>{p.assigned_at === null ? '' : whenIso(p.assigned_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
