import { AssistantRuntimeProvider } from '@assistant-ui/react';
import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import styles from './CopilotPage.module.css';
import { PendingQuestion } from './PendingQuestion';
import { useCopilotRuntime } from './runtime/useCopilotRuntime';
import { SaveProblem } from './SaveProblem';
import { ThreadList } from './ThreadList';
import { useOpenLatestThread } from './useOpenLatestThread';
import { useSuggestions } from './useSuggestions';
import { Thread } from './view/Thread';
import { TooltipProvider } from './view/TooltipButton';

/**
 * The page fills the window below what sits above it (the announcement bar while shown, the navbar), so the composer
 * starts above the fold. CSS alone cannot know the bar's height: it wraps on a phone and goes when dismissed.
 */
function useFillWindowBelowTop(page: RefObject<HTMLDivElement | null>) {
  useLayoutEffect(() => {
    const element = page.current;
    if (!element) return;
    const place = () =>
      element.style.setProperty('--page-top', `${element.getBoundingClientRect().top + window.scrollY}px`);
    place();
    // The app's root (not the body, which is as tall as the window) shrinks when the bar is dismissed.
    const observer = new ResizeObserver(place);
    observer.observe(document.getElementById('__docusaurus') ?? document.body);
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [page]);
}

function Conversations(): ReactNode {
  const { settled, reopen } = useOpenLatestThread();
  const suggestions = useSuggestions();
  const page = useRef<HTMLDivElement>(null);
  useFillWindowBelowTop(page);
  return (
    <div ref={page} className={styles.page} data-testid="copilot-page">
      <PendingQuestion ready={settled} />
      <ThreadList onLeave={reopen} />
      <section className={styles.conversation} aria-label="Conversation">
        <Thread suggestions={suggestions} notice={<SaveProblem />} />
      </section>
    </div>
  );
}

/**
 * The assistant page: the reader's conversations beside the open one. Archiving or deleting the open conversation
 * opens the newest regular one, or a new one (spec section 4).
 */
export default function CopilotPage(): ReactNode {
  const runtime = useCopilotRuntime();
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <TooltipProvider>
        <Conversations />
      </TooltipProvider>
    </AssistantRuntimeProvider>
  );
}
