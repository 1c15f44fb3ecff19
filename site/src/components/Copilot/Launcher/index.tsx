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
 * The chat code is fetched once the page is idle or the pointer nears the button. The first click opens a light
 * chat at once (ChatShell: its composer takes text and files straight away) while the real chat starts behind it;
 * the real one takes its place, and the reader's draft, once its conversation is on screen. A question from another
 * part of the site wakes the real chat directly.
 */
export function CopilotLauncher(): ReactNode {
  const { pathname } = useLocation();
  const [woken, setWoken] = useState(false);
  const [open, setOpen] = useState(false);
  const [usable, setUsable] = useState(false);
  const [askedElsewhere, setAskedElsewhere] = useState(false);
  useEffect(() => {
    const wake = () => {
      setWoken(true);
      setAskedElsewhere(true);
    };
    if (hasPendingQuestion()) wake();
    return onCopilotQuestion(wake);
  }, []);
  useLauncherShortcut(pressLauncher);
  const launcher = useRef<HTMLButtonElement>(null);
  usePreloadChat(launcher, loadFloatingCopilot, !woken && !onAssistantPage(pathname));
  const { module, failed, retry } = useChatModule(woken);
  const markUsable = useCallback(() => setUsable(true), []);
  if (onAssistantPage(pathname)) return null;

  // Once true it stays so: the light chat is no longer shown, so nothing changes `open` or `usable` again.
  const handedOver = askedElsewhere || (usable && open);
  const close = () => {
    setOpen(false);
    launcher.current?.focus();
  };
  return (
    <>
      {!handedOver && (
        <LauncherButton
          ref={launcher}
          open={open}
          aria-expanded={open}
          onClick={() => {
            setWoken(true);
            if (open) close();
            else setOpen(true);
          }}
          // Start fetching on intent, so the click usually finds the chunk already there.
          onPointerEnter={() => void loadFloatingCopilot().catch(() => undefined)}
          onFocus={() => void loadFloatingCopilot().catch(() => undefined)}
        />
      )}
      {!handedOver && open && <ChatShell onClose={close} failed={failed} onRetry={retry} />}
      {handedOver && !module && <LauncherButton aria-busy="true" />}
      {woken && module && <module.default initiallyOpen={open} waiting={!handedOver} onUsable={markUsable} />}
    </>
  );
}
