import { AuthGate } from '@site/src/components/Auth/AuthGate';
import { AuthProvider } from '@site/src/components/Auth/AuthProvider';
import { CopilotLauncher } from '@site/src/components/Copilot/Launcher';
import OriginalRoot from '@theme-original/Root';
import type { ReactNode } from 'react';

/**
 * Wraps the whole app once, so the sign-in state and Dev Copilot's conversation survive client-side navigation.
 * The launcher sits inside the gate: only allowed readers get the assistant.
 */
export default function Root({ children }: { children: ReactNode }): ReactNode {
  return (
    <OriginalRoot>
      <AuthProvider>
        <AuthGate>
          {children}
          <CopilotLauncher />
        </AuthGate>
      </AuthProvider>
    </OriginalRoot>
  );
}
