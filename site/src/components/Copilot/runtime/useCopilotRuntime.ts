import {
  type AssistantRuntime,
  type ThreadRuntime,
  useAui,
  useLocalRuntime,
  useRemoteThreadListRuntime,
  WebSpeechSynthesisAdapter,
} from '@assistant-ui/react';
import { useEffect, useMemo, useRef } from 'react';
import { useCopilotActions } from '../useCopilotActions';
import { followingOtherTabs } from './asked-elsewhere';
import { ServerConversation } from './conversation';
import { createFeedbackAdapter } from './feedback-adapter';
import { ImageAttachmentAdapter } from './image-attachment-adapter';
import { showEndedAnswer, showStoppedAnswer } from './stopped-answer';
import { rememberSwitchedBranch } from './switched-branch';
import { onTitleFromTurn, threadListAdapter } from './thread-list-adapter';
import { createTurnModelAdapter } from './turn-model-adapter';

const currentPage = () => window.location.pathname;

/** Read aloud exists only where the browser can speak. */
const canSpeak = () => typeof window !== 'undefined' && 'speechSynthesis' in window;

/**
 * The runtime of one open conversation: turns on the server, its stored messages as history, and the adapters the
 * site config allows. Leaving an adapter out is what hides its buttons (the runtime then lacks the capability).
 */
function useConversationRuntime(): AssistantRuntime {
  const aui = useAui();
  const actions = useCopilotActions();
  const conversation = useMemo(
    () =>
      new ServerConversation({
        remoteId: () => aui.threadListItem.getState().remoteId,
        initialize: () => aui.threadListItem.initialize(),
      }),
    [aui],
  );
  const adapters = useMemo(
    () => ({
      history: conversation.history,
      ...(actions.allowFeedbackPositive || actions.allowFeedbackNegative
        ? { feedback: createFeedbackAdapter(conversation) }
        : {}),
      ...(actions.allowSpeak && canSpeak() ? { speech: new WebSpeechSynthesisAdapter() } : {}),
      ...(actions.allowAttachments ? { attachments: new ImageAttachmentAdapter() } : {}),
    }),
    [conversation, actions],
  );
  // The model may move a question to the end of what another tab asked: it shows the conversation through the runtime.
  const shown = useRef<ThreadRuntime | undefined>(undefined);
  const model = useMemo(
    () =>
      followingOtherTabs(
        createTurnModelAdapter(
          conversation,
          currentPage,
          (answerId, kept) => showStoppedAnswer(shown.current, answerId, kept),
          (ended) => void showEndedAnswer(shown.current, ended),
        ),
        () => aui.threadListItem.getState().remoteId,
        () => shown.current,
      ),
    [aui, conversation],
  );
  // An edit of the first question may rename the thread on the server: the list shows the new title at once. A thread
  // still without one gets its first title from assistant-ui's own generation, which asks the adapter too.
  useEffect(
    () =>
      onTitleFromTurn((threadId, title) => {
        const item = aui.threadListItem.getState();
        if (item.remoteId === threadId && item.title !== undefined && item.title !== title) {
          aui.threadListItem.generateTitle();
        }
      }),
    [aui],
  );
  const runtime = useLocalRuntime(model, { adapters, maxSteps: 2 });
  useEffect(() => {
    shown.current = runtime.thread;
  }, [runtime]);
  useEffect(() => rememberSwitchedBranch(runtime.thread, () => aui.threadListItem.getState().remoteId), [runtime, aui]);
  return runtime;
}

/** Dev Copilot's runtime: the reader's threads on the server (assistant-ui's remote thread list), one open at a time. */
export function useCopilotRuntime(): AssistantRuntime {
  return useRemoteThreadListRuntime({ adapter: threadListAdapter, runtimeHook: useConversationRuntime });
}
