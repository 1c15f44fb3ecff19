import { AssistantRuntimeProvider } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import styles from './CopilotPage.module.css';
import { PendingQuestion } from './PendingQuestion';
import { useCopilotRuntime } from './runtime/useCopilotRuntime';
import { SaveProblem } from './SaveProblem';
import { ThreadList } from './ThreadList';
import { useOpenLatestThread } from './useOpenLatestThread';
import { useSuggestions } from './useSuggestions';
import { Thread } from './view/Thread';

function Conversations(): ReactNode {
  const { settled, reopen } = useOpenLatestThread();
  const suggestions = useSuggestions();
  return (
    <div className={styles.page} data-testid="copilot-page">
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
      <Conversations />
    </AssistantRuntimeProvider>
  );
}
