import { useAui, useAuiState } from '@assistant-ui/react';
import { useEffect, useState } from 'react';
import { onCopilotQuestion, takePendingQuestion } from './ask-copilot';

/**
 * Sends questions handed over by the rest of the site (askCopilot) once the conversation on screen is settled. Such a
 * question is a topic of its own: it starts a new conversation unless the open one is still empty, so the chat shows
 * exactly where it was asked and the earlier conversation stays as it was.
 */
export function PendingQuestion({ ready }: { ready: boolean }): null {
  const aui = useAui();
  const [question, setQuestion] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const threadReady = useAuiState((s) => !s.thread.isLoading && !s.threads.isLoading);
  const isEmpty = useAuiState((s) => s.thread.isEmpty);
  useEffect(() => {
    if (!ready) return;
    const take = () => {
      const next = takePendingQuestion();
      if (next) setQuestion(next);
    };
    take();
    return onCopilotQuestion(take);
  }, [ready]);
  useEffect(() => {
    if (!question || !threadReady || switching) return;
    if (!isEmpty) {
      setSwitching(true);
      // assistant-ui returns the switch's task (typed void).
      void Promise.resolve(aui.threads.switchToNewThread()).then(
        () => setSwitching(false),
        () => {
          // No new conversation could be opened: asking in the open one still answers the reader.
          setSwitching(false);
          setQuestion(null);
          aui.thread.append(question);
        },
      );
      return;
    }
    setQuestion(null);
    aui.thread.append(question);
  }, [aui, question, threadReady, isEmpty, switching]);
  return null;
}
