import { AuthGate } from '@site/src/components/Auth/AuthGate';
import { AuthProvider } from '@site/src/components/Auth/AuthProvider';
import OriginalRoot from '@theme-original/Root';
import type { ReactNode } from 'react';

/** Wraps the whole app once, so the sign-in state survives client-side navigation. */
export default function Root({ children }: { children: ReactNode }): ReactNode {
  return (
    <OriginalRoot>
      <AuthProvider>
        <AuthGate>{children}</AuthGate>
      </AuthProvider>
    </OriginalRoot>
  );
}
