import { useLocation } from '@docusaurus/router';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { siteFacts } from '../../../../site.config';
import { hasPendingQuestion, onCopilotQuestion } from '../ask-copilot';
import { ChatShell } from './ChatShell';
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

/**
 * The chat's code once `wanted`, fetched then if the page has not fetched it ahead. Not through lazy(): React 19
 * holds a suspended tree back for up to 300 ms after its fallback shows, and nothing here needs to wait.
 */
function useChatModule(wanted: boolean) {
  const [module, setModule] = useState(loaded);
  const [failed, setFailed] = useState(false);
  const fetchChat = useCallback(() => {
    setFailed(false);
    loadFloatingCopilot().then(setModule, () => setFailed(true));
  }, []);
  useEffect(() => {
    if (wanted && !module && !loaded) fetchChat();
  }, [wanted, module, fetchChat]);
  // Fetched ahead: used at once, in the render that asked for it.
  return { module: module ?? (wanted ? loaded : undefined), failed, retry: fetchChat };
}

/**
 * Dev Copilot's floating button on every page but the assistant page (which is the same assistant, full-page).
 * The chat code is fetched once the page is idle or the pointer nears the button. Until it is there, a click opens
 * a light chat at once (ChatShell) whose composer takes text and files straight away; the real popover replaces it
 * when the code arrives, and carries on with what the reader wrote. A question from another part of the site wakes
 * the real chat directly.
 */
export function CopilotLauncher(): ReactNode {
  const { pathname } = useLocation();
  const [woken, setWoken] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const wake = () => setWoken(true);
    if (hasPendingQuestion()) wake();
    return onCopilotQuestion(wake);
  }, []);
  useLauncherShortcut(pressLauncher);
  const launcher = useRef<HTMLButtonElement>(null);
  usePreloadChat(launcher, loadFloatingCopilot, !woken && !onAssistantPage(pathname));
  const { module, failed, retry } = useChatModule(woken);
  if (onAssistantPage(pathname)) return null;
  if (woken && module) {
    return (
      <module.default
        initiallyOpen={open}
        launcherFocused={launcher.current !== null && launcher.current === document.activeElement}
      />
    );
  }

  const close = () => {
    setOpen(false);
    launcher.current?.focus();
  };
  return (
    <>
      <LauncherButton
        ref={launcher}
        open={open}
        aria-expanded={open}
        aria-busy={woken && !open ? true : undefined}
        onClick={() => {
          setWoken(true);
          if (open) close();
          else setOpen(true);
        }}
        // Start fetching on intent, so the click usually finds the chunk already there.
        onPointerEnter={() => void loadFloatingCopilot().catch(() => undefined)}
        onFocus={() => void loadFloatingCopilot().catch(() => undefined)}
      />
      {open && <ChatShell onClose={close} failed={failed} onRetry={retry} />}
    </>
  );
}
