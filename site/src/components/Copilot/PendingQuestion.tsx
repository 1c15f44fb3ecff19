import { useAui } from '@assistant-ui/react';
import { useEffect } from 'react';
import { onCopilotQuestion, takePendingQuestion } from './ask-copilot';
import type { ServerThreadHistory } from './runtime/server-thread-history';

/** Sends questions handed over by the rest of the site (askCopilot) once the conversation has loaded. */
export function PendingQuestion({ history }: { history: ServerThreadHistory }): null {
  const aui = useAui();
  useEffect(() => {
    let active = true;
    const send = () =>
      void history.loaded.then(() => {
        const question = active ? takePendingQuestion() : null;
        if (question) aui.thread().append(question);
      });
    send();
    const unsubscribe = onCopilotQuestion(send);
    return () => {
      active = false;
      unsubscribe();
    };
  }, [aui, history]);
  return null;
}
