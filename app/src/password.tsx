import { useState } from 'preact/hooks';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';

// A person's own password, for those who sign in at this gate with one: the current password,
// then the new one twice. The gate keeps who they are (their identity, grants and past
// signatures) and ends their other sign-in sessions; this one goes on.

export function Password({ onNotice }: { onNotice: (t: string) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);

  const change = async (form: HTMLFormElement) => {
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
    if (field('password') !== field('again')) return setMismatch(true);
    setMismatch(false);
    setBusy(true);
    try {
      await rpc('gv.password_change', { current: field('current'), password: field('password') });
      form.reset();
      setError(null);
      onNotice('Password changed. Your other sign-in sessions have ended.');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Password">
      <h2>Password</h2>
      <Problem error={error} />
      {mismatch && (
        <p class="problem" role="alert">
          The two new passwords differ.
        </p>
      )}
      <form
        aria-label="Change your password"
        onSubmit={(e) => {
          e.preventDefault();
          void change(e.currentTarget);
        }}
      >
        <label>
          Current password <input name="current" type="password" autocomplete="current-password" required />
        </label>
        <label>
          New password <input name="password" type="password" autocomplete="new-password" minLength={8} required />
        </label>
        <label>
          The new password again <input name="again" type="password" autocomplete="new-password" minLength={8} required />
        </label>
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </form>
    </section>
  );
}
