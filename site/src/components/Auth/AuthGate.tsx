import { useLocation } from '@docusaurus/router';
import type { ReactNode } from 'react';
import { useAuth } from './AuthProvider';
import styles from './styles.module.css';

function loginHref(returnPath: string, switchAccount: boolean): string {
  const query = new URLSearchParams({ next: returnPath });
  if (switchAccount) query.set('switch', '1');
  return `/auth/login?${query.toString()}`;
}

/** Shows the site while the session is allowed; the sign-in prompt once it has ended; a spinner in between. */
export function AuthGate({ children }: { children: ReactNode }): ReactNode {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'allowed') return children;
  if (state.status === 'checking') {
    return (
      <div className={styles.screen} role="status" aria-live="polite" data-testid="auth-loading">
        <span className={styles.spinner} aria-hidden="true" />
        <span>Checking your sign-in…</span>
      </div>
    );
  }
  const returnPath = `${location.pathname}${location.search}${location.hash}`;
  const [first = '', second = ''] = state.primaryDomains.map((domain) => `@${domain}`);
  return (
    <div className={styles.screen} data-testid="auth-gate">
      <div className={styles.card}>
        <h1>Acme Developer Handbook</h1>
        {state.status === 'not-allowed' ? (
          <p className={styles.warning} role="alert">
            You are signed in as <strong>{state.email}</strong>, which is not allowed to read the handbook.
          </p>
        ) : (
          <p className={styles.warning} role="alert">
            Your session has ended.
          </p>
        )}
        <p>
          You must log in with an account from <strong>{first}</strong> or <strong>{second}</strong> to access the
          internal documentation.
        </p>
        <a
          className="button button--primary button--block"
          href={loginHref(returnPath, state.status === 'not-allowed')}
        >
          {state.status === 'not-allowed' ? 'Use another account' : 'Login with Google'}
        </a>
      </div>
    </div>
  );
}
