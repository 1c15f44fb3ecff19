import { AssistantModalPrimitive, AssistantRuntimeProvider, useAui, useAuiState } from '@assistant-ui/react';
import Link from '@docusaurus/Link';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { siteFacts } from '../../../site.config';
import styles from './FloatingCopilot.module.css';
import { LauncherButton } from './Launcher/LauncherButton';
import { PendingQuestion } from './PendingQuestion';
import { useCopilotRuntime } from './runtime/useCopilotRuntime';
import { SaveProblem } from './SaveProblem';
import { useOpenLatestThread } from './useOpenLatestThread';
import { useSuggestions } from './useSuggestions';
import { ChatEscape } from './view/chat-escape';
import { Icon } from './view/icons';
import shared from './view/shared.module.css';
import { Thread } from './view/Thread';
import { TooltipButton, TooltipProvider, WithTooltip } from './view/TooltipButton';
import { useConversationLoaded } from './view/useConversationLoaded';
import { useFollowingAnswer } from './view/useFollowedAnswer';

type PopoverProps = { open: boolean; onOpenChange: (open: boolean) => void };

/** The spec's mobile breakpoint: below it the chat is a full-screen sheet. */
const mobileBreakpointPx = 996;

/**
 * The floating assistant: a popover above the button (top side, end-aligned, offset 16), a full-screen sheet below
 * 996 px. It continues the reader's latest conversation and opens by itself when a run starts.
 */
export default function FloatingCopilot({
  initiallyOpen,
  launcherFocused = false,
}: {
  initiallyOpen: boolean;
  /** The button it replaces had the keyboard focus: this one takes it over. */
  launcherFocused?: boolean;
}): ReactNode {
  const [open, setOpen] = useState(initiallyOpen);
  const runtime = useCopilotRuntime();
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <TooltipProvider>
        <CopilotPopover open={open} onOpenChange={setOpen} launcherFocused={launcherFocused} />
      </TooltipProvider>
    </AssistantRuntimeProvider>
  );
}

function CopilotPopover({
  open,
  onOpenChange,
  launcherFocused,
}: PopoverProps & { launcherFocused: boolean }): ReactNode {
  const launcher = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!launcherFocused) return;
    // A frame later: focused in the effect itself, the button lost the focus again at once (seen in Chromium).
    const frame = requestAnimationFrame(() => launcher.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [launcherFocused]);
  const suggestions = useSuggestions();
  const { settled } = useOpenLatestThread();
  // Once the reader's latest conversation is on screen the chat stays drawn, whatever loads later.
  const loaded = useConversationLoaded();
  const [shown, setShown] = useState(false);
  const ready = shown || (settled && loaded);
  useEffect(() => {
    if (ready) setShown(true);
  }, [ready]);
  // An answer followed after a reload mid-answer runs as much as one asked here: Escape stops it too.
  const following = useFollowingAnswer();
  const isRunning = useAuiState((s) => s.thread.isRunning) || following;
  // While an answer streams, Escape belongs to the composer: it stops the run, the chat stays open. In a message being
  // edited, it cancels the edit (spec section 5), and the chat stays open too; in the navbar's search, it closes the
  // suggestions shown above the chat, not the chat.
  const keepsOpen = (event: KeyboardEvent) =>
    isRunning || (event.target instanceof Element && event.target.closest('[data-editing-message], search') !== null);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (!keepsOpen(event)) onOpenChange(false);
  };
  return (
    <AssistantModalPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <PendingQuestion ready={settled} onHanded={() => onOpenChange(true)} />
      <AssistantModalPrimitive.Anchor className={styles.launcherAnchor}>
        <AssistantModalPrimitive.Trigger asChild>
          <LauncherButton ref={launcher} open={open} />
        </AssistantModalPrimitive.Trigger>
      </AssistantModalPrimitive.Anchor>
      <AssistantModalPrimitive.Content
        side="top"
        align="end"
        sideOffset={16}
        className={styles.popover}
        data-testid="copilot-popover"
        aria-label={siteFacts.assistantName}
        onClickCapture={(event) => {
          // On a phone the chat covers the whole page: a link to a section of the handbook would change the page
          // out of sight. The chat gives way to the page it leads to, and comes back as it was with the button.
          if (window.innerWidth > mobileBreakpointPx || !(event.target instanceof Element)) return;
          const link = event.target.closest('a[href]');
          if (link instanceof HTMLAnchorElement && link.origin === window.location.origin && link.target !== '_blank') {
            onOpenChange(false);
          }
        }}
        onEscapeKeyDown={(event) => {
          if (keepsOpen(event)) event.preventDefault();
        }}
      >
        <ChatEscape.Provider value={closeOnEscape}>
          <PopoverHeader onClose={() => onOpenChange(false)} />
          {/* Until the conversation on screen is the reader's latest, loaded, the light composer keeps taking input. */}
          <Thread suggestions={suggestions} notice={<SaveProblem />} loading={!ready} />
        </ChatEscape.Provider>
      </AssistantModalPrimitive.Content>
    </AssistantModalPrimitive.Root>
  );
}

/**
 * The chat's own bar: on a phone the sheet covers the launcher, so closing must be possible from inside. Leaving a
 * conversation while it is answered loses nothing: the server finishes the answer and keeps it.
 */
function PopoverHeader({ onClose }: { onClose: () => void }) {
  const aui = useAui();
  const isEmpty = useAuiState((s) => s.thread.isEmpty);
  // A div, not a header: inside the popover a header would be a second banner landmark beside the navbar's.
  return (
    <div className={styles.popoverHeader}>
      <span className={styles.popoverTitle}>{siteFacts.assistantName}</span>
      <TooltipButton tooltip="New conversation" onClick={() => aui.threads.switchToNewThread()} disabled={isEmpty}>
        <Icon name="plus" />
      </TooltipButton>
      <WithTooltip tooltip="Open all conversations">
        <Link to={siteFacts.assistantPath} className={shared.iconButton} aria-label="Open all conversations">
          <Icon name="expand" />
        </Link>
      </WithTooltip>
      {/* Not plain "Close": the announcement bar has one, and a screen reader's list of buttons must tell them apart. */}
      <TooltipButton tooltip={`Close ${siteFacts.assistantName}`} onClick={onClose}>
        <Icon name="close" />
      </TooltipButton>
    </div>
  );
}
