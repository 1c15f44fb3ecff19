import { ThreadPrimitive } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import { siteFacts } from '../../../../site.config';
import { AssistantAvatar } from './AssistantAvatar';
import styles from './Welcome.module.css';

export type Suggestion = { title: string; prompt: string };

/** The empty thread: who Dev Copilot is, and questions that send on click. */
export function Welcome({ suggestions }: { suggestions: readonly Suggestion[] }): ReactNode {
  return (
    <div className={styles.welcome} data-testid="copilot-welcome">
      <AssistantAvatar />
      <p className={styles.welcomeIntro}>
        Hi, I am {siteFacts.assistantName}, the team's development copilot. I answer from the {siteFacts.companyName}{' '}
        developer handbook and link the sections I quote.
      </p>
      <p className={styles.welcomeQuestion}>How can I help you today?</p>
      <div className={styles.suggestions}>
        {suggestions.map((suggestion) => (
          <ThreadPrimitive.Suggestion
            key={suggestion.title}
            prompt={suggestion.prompt}
            send
            className={styles.suggestion}
          >
            {suggestion.title}
          </ThreadPrimitive.Suggestion>
        ))}
      </div>
    </div>
  );
}
