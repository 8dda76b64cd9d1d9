import { useState } from 'preact/hooks';
import { data } from '../api';
import type { Data } from '../api-types';
import { Link, navigate } from '../router';
import { type Session, useSession } from '../session';
import { ErrorBox, Field } from '../ui';

export function SignIn() {
  const { setSession } = useSession();
  const [withKey, setWithKey] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(null);
    try {
      const body = withKey ? { api_key: String(form.get('api_key')) } : { email: String(form.get('email')), password: String(form.get('password')) };
      const session = await data<Session>('POST', '/session', body);
      setSession(session);
      navigate(location.pathname === '/sign-in' || location.pathname === '/' ? '/projects' : location.pathname + location.search, true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card">
      <h1>Sign in to Sightline</h1>
      <form onSubmit={submit} aria-label="Sign in">
        {withKey ? (
          <Field label="API key" hint="A session of the key's scope; the key is not kept in the browser.">
            <input name="api_key" type="password" autoComplete="off" required />
          </Field>
        ) : (
          <>
            <Field label="Email">
              <input name="email" type="email" autoComplete="username" required />
            </Field>
            <Field label="Password">
              <input name="password" type="password" autoComplete="current-password" required />
            </Field>
          </>
        )}
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        <button type="button" class="link" onClick={() => setWithKey(!withKey)}>
          {withKey ? 'Use email and password instead' : 'Use an API key instead'}
        </button>
      </p>
      <p>
        No account? <Link href="/create-account">Create an account</Link>
      </p>
    </div>
  );
}

export function CreateAccount() {
  const { setSession } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget as HTMLFormElement).get('email'));
    setError(null);
    try {
      setCreated(await data<Data<'/v1/account/create', 'post'>>('POST', '/account/create', { email }));
    } catch (err) {
      setError(err);
    }
  };
  const continueIn = async () => {
    if (!created) return;
    try {
      setSession(await data<Session>('POST', '/session', { email: created.email, password: created.password }));
      navigate('/projects', true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div class="card">
      <h1>Create an account</h1>
      {created ? (
        <>
          <p>Your account is ready. Keep this password: it is shown only once.</p>
          <Field label="Generated password">
            <input readOnly value={created.password} class="mono" onFocus={(event) => (event.currentTarget as HTMLInputElement).select()} />
          </Field>
          <button type="button" class="secondary" onClick={() => navigator.clipboard?.writeText(created.password)}>
            Copy password
          </button>{' '}
          <button type="button" onClick={continueIn}>
            Continue
          </button>
        </>
      ) : (
        <form onSubmit={submit} aria-label="Create an account">
          <Field label="Email">
            <input name="email" type="email" autoComplete="email" required />
          </Field>
          <button type="submit">Create account</button>
        </form>
      )}
      <ErrorBox error={error} />
      <p>
        Have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </div>
  );
}
