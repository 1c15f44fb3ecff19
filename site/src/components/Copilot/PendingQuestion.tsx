import { useAui } from '@assistant-ui/react';
import { useEffect } from 'react';
import { onCopilotQuestion, takePendingQuestion } from './ask-copilot';

/** Sends questions handed over by the rest of the site (askCopilot) once the conversation to ask in is open. */
export function PendingQuestion({ ready }: { ready: boolean }): null {
  const aui = useAui();
  useEffect(() => {
    if (!ready) return;
    const send = () => {
      const question = takePendingQuestion();
      if (question) aui.thread.append(question);
    };
    send();
    return onCopilotQuestion(send);
  }, [aui, ready]);
  return null;
}
