import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { type AuthState, fetchAuthState } from './auth-state';

type AuthContextValue = { state: AuthState; logout: () => Promise<void> };

const AuthContext = createContext<AuthContextValue | null>(null);

/** Re-checks the session when the reader comes back to the tab, at most this often, and every few minutes. */
const recheckAfterMs = 60_000;
const recheckEveryMs = 5 * 60_000;

/**
 * The page was served, so the server found an allowed session: start as "allowed" (no loading flash on first paint)
 * and notice when the session ends while the page stays open.
 */
export function AuthProvider({ children }: { children: ReactNode }): ReactNode {
  const [state, setState] = useState<AuthState>({ status: 'allowed' });

  useEffect(() => {
    let checkedAt = Date.now();
    const controller = new AbortController();
    const recheck = () => {
      if (document.visibilityState !== 'visible' || Date.now() - checkedAt < recheckAfterMs) return;
      checkedAt = Date.now();
      void fetchAuthState(controller.signal).then(setState);
    };
    const timer = window.setInterval(() => {
      checkedAt = 0;
      recheck();
    }, recheckEveryMs);
    document.addEventListener('visibilitychange', recheck);
    window.addEventListener('focus', recheck);
    return () => {
      controller.abort();
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', recheck);
      window.removeEventListener('focus', recheck);
    };
  }, []);

  const logout = useCallback(async () => {
    setState({ status: 'checking' });
    await fetch('/auth/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    window.location.reload();
  }, []);

  const value = useMemo(() => ({ state, logout }), [state, logout]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The reader's sign-in state and the logout action. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider (src/theme/Root).');
  return value;
}
