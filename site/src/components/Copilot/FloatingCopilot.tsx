import { AssistantModalPrimitive, AssistantRuntimeProvider, useAuiState } from '@assistant-ui/react';
import { type ReactNode, useState } from 'react';
import { LauncherButton } from './Launcher/LauncherButton';
import { PendingQuestion } from './PendingQuestion';
import { useCopilotRuntime } from './runtime/useCopilotRuntime';
import { useCopilotActions } from './useCopilotActions';
import { useSuggestions } from './useSuggestions';
import styles from './view/chat.module.css';
import { Thread } from './view/Thread';

const latestThread = { kind: 'latest' } as const;

/**
 * The floating assistant: a popover above the button (top side, end-aligned, offset 16), a full-screen sheet below
 * 996 px. It continues the reader's latest conversation and opens by itself when a run starts.
 */
export default function FloatingCopilot({ initiallyOpen }: { initiallyOpen: boolean }): ReactNode {
  const actions = useCopilotActions();
  const { runtime, history } = useCopilotRuntime(latestThread, actions);
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <PendingQuestion history={history} />
      <CopilotPopover open={open} onOpenChange={setOpen} />
    </AssistantRuntimeProvider>
  );
}

function CopilotPopover({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }): ReactNode {
  const suggestions = useSuggestions();
  const isRunning = useAuiState((s) => s.thread.isRunning);
  return (
    <AssistantModalPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AssistantModalPrimitive.Anchor className={styles.launcherAnchor}>
        <AssistantModalPrimitive.Trigger asChild>
          <LauncherButton open={open} />
        </AssistantModalPrimitive.Trigger>
      </AssistantModalPrimitive.Anchor>
      <AssistantModalPrimitive.Content
        side="top"
        align="end"
        sideOffset={16}
        className={styles.popover}
        data-testid="copilot-popover"
        aria-label="Dev Copilot"
        onEscapeKeyDown={(event) => {
          // While an answer streams, Escape belongs to the composer: it stops the run, the chat stays open.
          if (isRunning) event.preventDefault();
        }}
      >
        <Thread suggestions={suggestions} />
      </AssistantModalPrimitive.Content>
    </AssistantModalPrimitive.Root>
  );
}
