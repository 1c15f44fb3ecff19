import { AuiIf, ThreadPrimitive } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import { ShellComposer } from '../Launcher/ShellComposer';
import { ShellConversation } from '../Launcher/ShellConversation';
import { AnswerAnnouncement } from './AnswerAnnouncement';
import { AssistantMessage } from './AssistantMessage';
import { Composer } from './Composer';
import { FollowOtherTabs } from './FollowOtherTabs';
import { FollowStoredAnswer } from './FollowStoredAnswer';
import { Icon } from './icons';
import styles from './Thread.module.css';
import { TooltipButton } from './TooltipButton';
import { EditComposer, UserMessage } from './UserMessage';
import { type Suggestion, Welcome } from './Welcome';

/**
 * One conversation: the welcome or the messages, a scroll-to-bottom button while the reader is above the end, and
 * the composer (inside the page's `TooltipProvider`). The viewport follows the bottom while an answer streams, unless the reader scrolls up.
 */
export function Thread({
  suggestions,
  notice,
  loading = false,
}: {
  suggestions: readonly Suggestion[];
  /** Shown above the composer, e.g. that the conversation could not be saved. */
  notice?: ReactNode;
  /** The conversation to show is not known or not loaded yet: a placeholder and the light composer (its draft kept). */
  loading?: boolean;
}): ReactNode {
  return (
    <ThreadPrimitive.Root className={styles.thread}>
      <FollowStoredAnswer />
      <FollowOtherTabs />
      <AnswerAnnouncement />
      <ThreadPrimitive.Viewport className={styles.viewport} data-testid="copilot-viewport" aria-busy={loading}>
        {loading ? (
          <ShellConversation />
        ) : (
          <>
            <AuiIf condition={(s) => s.thread.isEmpty && !s.thread.isLoading && !s.threads.isLoading}>
              <Welcome suggestions={suggestions} />
            </AuiIf>
            <ThreadPrimitive.Messages components={{ UserMessage, EditComposer, AssistantMessage }} />
          </>
        )}
        <ThreadPrimitive.ViewportFooter className={styles.viewportFooter}>
          <ThreadPrimitive.ScrollToBottom asChild>
            <TooltipButton tooltip="Scroll to bottom" className={styles.scrollToBottom}>
              <Icon name="down" />
            </TooltipButton>
          </ThreadPrimitive.ScrollToBottom>
          {notice}
          {loading ? <ShellComposer /> : <Composer />}
        </ThreadPrimitive.ViewportFooter>
      </ThreadPrimitive.Viewport>
    </ThreadPrimitive.Root>
  );
}
