import { useAui, useAuiState } from '@assistant-ui/react';
import { useEffect, useState } from 'react';
import { onCopilotQuestion, takePendingQuestion } from './ask-copilot';

/**
 * Sends questions handed over by the rest of the site (askCopilot) once the conversation on screen is settled. Such a
 * question is a topic of its own: it starts a new conversation unless the open one is still empty, so the chat shows
 * exactly where it was asked and the earlier conversation stays as it was.
 */
export function PendingQuestion({
  ready,
  onHanded,
}: {
  ready: boolean;
  /** Called as a question is sent: the floating chat opens, so whatever becomes of the question is seen. */
  onHanded?: () => void;
}): null {
  const aui = useAui();
  const [question, setQuestion] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const threadReady = useAuiState((s) => !s.thread.isLoading && !s.threads.isLoading);
  const isEmpty = useAuiState((s) => s.thread.isEmpty);
  // No text and no screenshot of the reader's waiting to be sent.
  const composerEmpty = useAuiState((s) => s.composer.isEmpty);
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
          onHanded?.();
          aui.thread.append(question);
        },
      );
      return;
    }
    setQuestion(null);
    onHanded?.();
    // Through the composer, when it holds no draft of the reader's: should the new conversation not be created (the
    // server out of reach), the question goes back into it with the reason and a Retry, instead of being lost.
    if (composerEmpty) {
      aui.composer.setText(question);
      aui.composer.send();
    } else {
      aui.thread.append(question);
    }
  }, [aui, question, threadReady, isEmpty, composerEmpty, switching, onHanded]);
  return null;
}
