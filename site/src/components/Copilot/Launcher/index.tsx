import { useLocation } from '@docusaurus/router';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { siteFacts } from '../../../../site.config';
import { hasPendingQuestion, onCopilotQuestion } from '../ask-copilot';
import { LauncherButton } from './LauncherButton';
import { usePreloadChat } from './preload';
import { useLauncherShortcut } from './shortcut';

const onAssistantPage = (pathname: string) => pathname.replace(/\/$/, '') === siteFacts.assistantPath;

/**
 * The shortcut presses the launcher (which opens or closes the chat, loaded or not); on the assistant page, where
 * there is no launcher, it puts the cursor in the composer.
 */
function pressLauncher() {
  const launcher = document.querySelector<HTMLButtonElement>('[data-testid="copilot-launcher"]');
  if (launcher) launcher.click();
  else document.querySelector<HTMLTextAreaElement>('[data-testid="copilot-composer"] textarea')?.focus();
}

/** The chat (assistant-ui, markdown) is its own chunk: a doc page's first paint carries only this launcher. */
type FloatingCopilotModule = typeof import('../FloatingCopilot');
let loaded: FloatingCopilotModule | undefined;
const loadFloatingCopilot = () =>
  import('../FloatingCopilot').then((module) => {
    loaded = module;
    return module;
  });
const FloatingCopilot = lazy(loadFloatingCopilot);

/**
 * Dev Copilot's floating button on every page but the assistant page (which is the same assistant, full-page).
 * The chat code is fetched once the page is idle or the pointer nears the button, and runs when the reader first
 * opens it or another part of the site asks it a question.
 */
export function CopilotLauncher(): ReactNode {
  const { pathname } = useLocation();
  const [wanted, setWanted] = useState<'closed' | 'open' | null>(null);
  useEffect(() => {
    const wake = () => setWanted((current) => current ?? 'closed');
    if (hasPendingQuestion()) wake();
    return onCopilotQuestion(wake);
  }, []);
  useLauncherShortcut(pressLauncher);
  const launcher = useRef<HTMLButtonElement>(null);
  usePreloadChat(launcher, loadFloatingCopilot, !wanted && !onAssistantPage(pathname));
  if (onAssistantPage(pathname)) return null;
  if (!wanted) {
    return (
      <LauncherButton
        ref={launcher}
        onClick={() => setWanted('open')}
        // Start fetching on intent, so the click usually finds the chunk already there.
        onPointerEnter={() => void loadFloatingCopilot()}
        onFocus={() => void loadFloatingCopilot()}
      />
    );
  }
  // Fetched ahead: rendered at once. Through lazy() React would suspend on the settled import anyway, and React 19
  // holds a suspended tree's content back for up to 300 ms after its fallback shows (measured: 440 -> 860 ms).
  if (loaded) return <loaded.default initiallyOpen={wanted === 'open'} />;
  return (
    <Suspense fallback={<LauncherButton aria-busy="true" />}>
      <FloatingCopilot initiallyOpen={wanted === 'open'} />
    </Suspense>
  );
}
