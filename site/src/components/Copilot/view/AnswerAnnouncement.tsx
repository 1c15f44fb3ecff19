import type { AnswerConfidence } from '@acme/contract';
import { useAuiState } from '@assistant-ui/react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { siteFacts } from '../../../../site.config';
import hidden from '../../../css/visually-hidden.module.css';

const said: Record<AnswerConfidence, string> = {
  answered: `${siteFacts.assistantName} answered.`,
  closest: `${siteFacts.assistantName} found the closest the handbook comes.`,
  none: `${siteFacts.assistantName}: not covered by the handbook.`,
};

/** The last answer as "id|writing", "id|done|confidence" or "id|other" (stopped, failed); null when it is no answer. */
function useLastAnswer(): string | null {
  return useAuiState((s) => {
    const last = s.thread.messages.at(-1);
    if (last?.role !== 'assistant') return null;
    if (last.status?.type === 'running' || last.metadata.custom.stillWriting === true) return `${last.id}|writing`;
    if (last.status?.type !== 'complete') return `${last.id}|other`;
    const confidence = last.metadata.custom.confidence;
    return `${last.id}|done|${typeof confidence === 'string' && confidence in said ? confidence : 'answered'}`;
  });
}

/**
 * Tells screen readers, once, that an answer has ended and how sure it is: the streamed words are not read out as
 * they come (that would be every token), and "Looking through the handbook…" is gone once the first one arrives. Only
 * an answer seen writing is announced, never one loaded with a conversation. A failed answer says so itself (an alert).
 */
export function AnswerAnnouncement(): ReactNode {
  const lastAnswer = useLastAnswer();
  const before = useRef<string | null>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    const [id, state, confidence] = lastAnswer?.split('|') ?? [];
    const [idBefore, stateBefore] = before.current?.split('|') ?? [];
    before.current = lastAnswer;
    // Emptied while an answer is written, so the next one is said even when it ends as the last one did.
    if (state === 'writing') setText('');
    else if (state === 'done' && id === idBefore && stateBefore === 'writing') {
      setText(said[confidence as AnswerConfidence]);
    }
  }, [lastAnswer]);
  // On the page from the start, so screen readers watch it before it speaks.
  return (
    <p className={hidden.visuallyHidden} role="status" data-testid="copilot-answer-announcement">
      {text}
    </p>
  );
}
