import { useState } from 'preact/hooks';
import { data } from '../api';
import type { Data } from '../api-types';
import { Link } from '../router';
import { useSession } from '../session';
import { ErrorBox, Field } from '../ui';

// Pages opened from a link (no session needed): accept a team invitation, and set a new
// password with the operator's one-time reset link. The token is in the URL's fragment,
// which the browser never sends to a server.

const tokenOfLink = () => decodeURIComponent(window.location.hash.replace(/^#/, ''));

type Accepted = Data<'/v1/account/invitations/{token}/accept', 'post'>;

export function AcceptInvitation() {
  const { session } = useSession();
  const [token] = useState(tokenOfLink);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<Accepted | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget as HTMLFormElement).get('password') ?? '');
    setBusy(true);
    setError(null);
    try {
      setDone(await data<Accepted>('POST', `/account/invitations/${encodeURIComponent(token)}/accept`, password ? { password } : {}));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (!token) return <p class="error">This link holds no invitation: open the whole link you were sent.</p>;
  if (done) {
    return (
      <div class="card" role="status" data-accepted>
        <h1>Welcome to the team</h1>
        <p>
          <strong>{done.email}</strong> joined as <strong>{done.role}</strong>.
          {done.created ? ' Your account is ready.' : ' The team was added to your existing account: sign in with your usual password.'}
        </p>
        {done.password ? (
          <Field label="Your password (shown once)">
            <input readOnly value={done.password} class="mono" />
          </Field>
        ) : null}
        {session ? <p>Sign out and sign in again to act in this team.</p> : <Link href="/sign-in">Sign in</Link>}
      </div>
    );
  }
  return (
    <div class="card">
      <h1>Accept the invitation</h1>
      <form onSubmit={submit} aria-label="Accept the invitation">
        <Field label="Choose a password" hint="For a new account, at least 12 characters; leave empty to get one generated. Ignored when you already have an account.">
          <input name="password" type="password" autoComplete="new-password" minLength={12} maxLength={200} />
        </Field>
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          Accept
        </button>
      </form>
    </div>
  );
}

export function ResetPassword() {
  const [token] = useState(tokenOfLink);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    if (form.get('password') !== form.get('again')) {
      setError(new Error('The two passwords differ'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await data('POST', '/account/password/reset', { token, new_password: String(form.get('password')) });
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (!token) return <p class="error">This link holds no reset token: open the whole link you were given.</p>;
  if (done) {
    return (
      <div class="card" role="status" data-password-set>
        <h1>Password set</h1>
        <p>Every earlier session was ended.</p>
        <Link href="/sign-in">Sign in</Link>
      </div>
    );
  }
  return (
    <div class="card">
      <h1>Set a new password</h1>
      <form onSubmit={submit} aria-label="Set a new password">
        <Field label="New password" hint="At least 12 characters.">
          <input name="password" type="password" autoComplete="new-password" minLength={12} maxLength={200} required />
        </Field>
        <Field label="New password again">
          <input name="again" type="password" autoComplete="new-password" minLength={12} maxLength={200} required />
        </Field>
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          Set password
        </button>
      </form>
    </div>
  );
}
