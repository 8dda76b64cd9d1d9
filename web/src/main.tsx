import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, data, onSessionLost, retryDelay, setCsrfToken, shouldRetry } from './api';
import { Layout } from './layout';
import { CreateAccount, SignIn } from './pages/sign-in';
import { AcceptInvitation, ResetPassword } from './pages/account-links';
import { Pages, prefetchRoute } from './pages/routes';
import { Router, navigate, useLocation } from './router';
import { type Session, SessionContext } from './session';
import { Loading, RateLimitNotice } from './ui';
import '@fontsource-variable/inter/wght.css';
import './styles.css';

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again, but a 429 is asked again after its Retry-After
      // (the layout says when); see shouldRetry.
      retry: shouldRetry,
      retryDelay,
    },
  },
});

const LINK_PAGES: Record<string, () => preact.JSX.Element> = {
  '/accept-invitation': () => <AcceptInvitation />,
  '/reset-password': () => <ResetPassword />,
};

// Who is signed in, asked as soon as the script runs (not after the first render). A 429
// here is not "signed out": it is asked again after its Retry-After (api() waits for it).
const openSession = (): Promise<Session | null> =>
  data<Session>('GET', '/session').catch((err) => (err instanceof ApiError && err.status === 429 && err.retryAfter !== null ? openSession() : null));
const firstSession = openSession();

// Start the page's code and first requests now, beside GET /session, and on each
// navigation (a request that turns out unauthorised is dropped with the cache at sign-out).
const prefetch = () => prefetchRoute(queries, window.location.pathname, new URLSearchParams(window.location.search));
prefetch();
window.addEventListener('sightline:navigate', prefetch);
window.addEventListener('popstate', prefetch);

function App() {
  const [session, setSessionState] = useState<Session | null | undefined>(undefined);
  const loc = useLocation();
  const setSession = (nextSession: Session | null) => {
    setCsrfToken(nextSession?.csrf_token ?? null);
    setSessionState(nextSession);
    if (!nextSession) queries.clear();
  };
  useEffect(() => {
    onSessionLost(() => setSession(null));
    void firstSession.then(setSession);
  }, []);
  // A 429 on GET /session is asked again after its Retry-After: say when, never a silent wait.
  if (session === undefined)
    return (
      <main id="main" class="narrow" tabIndex={-1}>
        <RateLimitNotice />
        <Loading what="Opening Sightline" />
      </main>
    );
  const ctx = { session, setSession };
  // Opened from a link, signed in or not: accept an invitation, set a password.
  const linkPage = LINK_PAGES[loc.path];
  if (linkPage) {
    return (
      <SessionContext.Provider value={ctx}>
        <main id="main" class="narrow" tabIndex={-1}>
          <RateLimitNotice />
          {linkPage()}
        </main>
      </SessionContext.Provider>
    );
  }
  if (!session) {
    return (
      <SessionContext.Provider value={ctx}>
        <main id="main" class="narrow" tabIndex={-1}>
          <RateLimitNotice />
          {loc.path === '/create-account' ? <CreateAccount /> : <SignIn />}
        </main>
      </SessionContext.Provider>
    );
  }
  if (loc.path === '/sign-in' || loc.path === '/create-account' || loc.path === '/') navigate('/projects', true);
  return (
    <SessionContext.Provider value={ctx}>
      <Layout
        onSignOut={async () => {
          await api('DELETE', '/session').catch(() => {});
          setSession(null);
          navigate('/sign-in');
        }}
      >
        <Pages />
      </Layout>
    </SessionContext.Provider>
  );
}

render(
  <QueryClientProvider client={queries}>
    <Router>
      <App />
    </Router>
  </QueryClientProvider>,
  document.getElementById('app') as HTMLElement,
);
