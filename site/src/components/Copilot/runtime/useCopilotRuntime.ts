import { type AssistantRuntime, useLocalRuntime, WebSpeechSynthesisAdapter } from '@assistant-ui/react';
import { useMemo } from 'react';
import type { CopilotActions } from '../../../../site.config';
import { createAskAiModelAdapter } from './ask-model-adapter';
import { createFeedbackAdapter } from './feedback-adapter';
import { ImageAttachmentAdapter } from './image-attachment-adapter';
import { type OnThreadKnown, ServerThreadHistory, type ThreadChoice } from './server-thread-history';

const currentPage = () => window.location.pathname;

/** Read aloud exists only where the browser can speak. */
const canSpeak = () => typeof window !== 'undefined' && 'speechSynthesis' in window;

/**
 * Dev Copilot's runtime: the askAi model, the server's thread API as history, and the adapters the site config
 * allows. Leaving an adapter out is what hides its buttons (the runtime then lacks the capability).
 */
export function useCopilotRuntime(
  choice: ThreadChoice,
  actions: CopilotActions,
  onThreadKnown?: OnThreadKnown,
): { runtime: AssistantRuntime; history: ServerThreadHistory } {
  // One history per mounted conversation: callers give each thread its own component key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the choice is fixed for the component's life
  const history = useMemo(() => new ServerThreadHistory(choice, onThreadKnown), []);
  const adapters = useMemo(
    () => ({
      history,
      ...(actions.allowFeedbackPositive || actions.allowFeedbackNegative
        ? { feedback: createFeedbackAdapter(history) }
        : {}),
      ...(actions.allowSpeak && canSpeak() ? { speech: new WebSpeechSynthesisAdapter() } : {}),
      ...(actions.allowAttachments ? { attachments: new ImageAttachmentAdapter() } : {}),
    }),
    [history, actions],
  );
  const model = useMemo(() => createAskAiModelAdapter(currentPage), []);
  return { runtime: useLocalRuntime(model, { adapters, maxSteps: 2 }), history };
}
