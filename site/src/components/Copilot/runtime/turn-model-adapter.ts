import type { ImageAttachment, TurnRequest } from '@acme/contract';
import type { ChatModelAdapter, ChatModelRunResult, ThreadMessage } from '@assistant-ui/react';
import { noteOwnTurn, type ServerConversation } from './conversation';
import { CopilotError } from './copilot-error';
import { questionStored } from './thread-list-adapter';
import { askTurn, stopTurn, type TurnSnapshot } from './turn-api';
import { answerParts } from './turn-message';

const textOf = (message: ThreadMessage) =>
  message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/** An image attachment's data URL, split into the media type and the bare base64 the server wants. */
export function imageFromDataUrl(dataUrl: string, name?: string): ImageAttachment | null {
  const match = dataUrl.match(/^data:([^;,]+);base64,(.*)$/s);
  if (!match?.[1] || match[2] === undefined) return null;
  return { type: 'image', contentType: match[1], content: match[2], ...(name ? { name } : {}) };
}

function imagesOf(message: ThreadMessage): ImageAttachment[] {
  return (message.attachments ?? []).flatMap((attachment) =>
    (attachment.content ?? []).flatMap((part) => {
      if (part.type !== 'image') return [];
      const image = imageFromDataUrl(part.image, attachment.name);
      return image ? [image] : [];
    }),
  );
}

/** How long the rest of a stopped answer's stream is read for the words that were on their way. */
const keptWaitMs = 10_000;

/**
 * Tells the server to stop a turn the reader stopped, at once: the server keeps every word it wrote before the Stop
 * reaches it, so waiting for the next word first kept one the reader never saw. Until the server has named the turn
 * (its first part), the question may still be on its way; the stream is read for the names first, so the stop finds
 * the answer and later questions follow it. Then the stream is read to its end (the server ends it once the stopped
 * answer is stored): words that were already on their way are kept too, so `showKept` shows them, and a reload shows
 * the same answer.
 */
async function stopAndShowKept(
  threadId: string,
  known: () => boolean,
  pending: Promise<IteratorResult<TurnSnapshot>>,
  answers: AsyncGenerator<TurnSnapshot>,
  learn: (message: TurnSnapshot) => boolean,
  showKept: (kept: TurnSnapshot) => void,
  showEnded: () => void,
) {
  try {
    let next: IteratorResult<TurnSnapshot> | undefined;
    if (!known()) {
      next = await pending;
      while (!next.done && !learn(next.value)) next = await answers.next();
    }
    if (!known()) return;
    // Nothing to stop: the answer had ended before the Stop reached the server, which kept it whole.
    if (!(await stopTurn(threadId))) return showEnded();
    // Each snapshot is the whole answer so far: the last one is what the server wrote, and kept.
    let kept = next && !next.done ? next.value : undefined;
    for (next = await (next ? answers.next() : pending); !next.done; next = await answers.next()) kept = next.value;
    if (kept) showKept(kept);
  } catch {
    // The turn failed, was never sent, or its stream broke: there is nothing to stop, or no more to show.
  }
}

/** assistant-ui aborts a run with `detach` set when the conversation leaves the screen, not when the reader stops it. */
const isDetach = (reason: unknown) =>
  typeof reason === 'object' && reason !== null && (reason as { detach?: unknown }).detach === true;

/** The stored answer a new question follows: the nearest earlier answer the server has; null for the first. */
function parentOf(messages: readonly ThreadMessage[], conversation: ServerConversation): string | null {
  for (const message of messages.slice(0, -1).reverse()) {
    const serverId = message.role === 'assistant' ? conversation.serverIdOf(message.id) : undefined;
    if (serverId) return serverId;
  }
  return null;
}

/**
 * Dev Copilot's model for the runtime: each run is one turn on the server (POST /api/turns). A question the server
 * already stored is answered again (Refresh); any other is a new question after the stored answer before it (a send,
 * or an edit). Stop tells the server to stop; closing the page does not, and the server finishes the answer.
 */
export function createTurnModelAdapter(
  conversation: ServerConversation,
  currentPage: () => string,
  /** Shows a stopped answer (the runtime's id) as the server kept it, when that has more than the screen showed. */
  showStopped: (answerId: string, kept: ChatModelRunResult) => void = () => {},
  /** Shows an answer (the runtime's id, the server's) as the server kept it, when it had ended before a Stop. */
  showEnded: (ended: { threadId: string; answerId: string; storedAnswerId: string }) => void = () => {},
): ChatModelAdapter {
  return {
    async *run({ messages, abortSignal, unstable_assistantMessageId: answerId }) {
      const question = messages.at(-1);
      if (question?.role !== 'user') throw new CopilotError('bad_request:ask', 'Only a question can be answered.');
      const threadId = await conversation.threadId();
      const stored = conversation.serverIdOf(question.id);
      const common = { threadId, attachments: imagesOf(question), page: currentPage() };
      const turn: TurnRequest = stored
        ? { ...common, retryOf: stored }
        : { ...common, parentId: parentOf(messages, conversation), text: textOf(question) };
      // The thread takes its title from its first question once that is stored; the turn's first part says it.
      const markStored = (title?: string) => questionStored(threadId, title);
      // Stopped while the thread was being created: the question is never sent.
      if (abortSignal.aborted) return markStored();
      const reading = new AbortController();
      const answers = askTurn(turn, reading.signal);
      const stopped = new Promise<null>((resolve) => abortSignal.addEventListener('abort', () => resolve(null)));
      let known = false;
      /** Notes the ids the server gave the question and the answer; true once they are known. */
      const learn = ({ data }: TurnSnapshot) => {
        const ids = data.turn;
        if (ids && !known) {
          known = true;
          markStored(ids.title);
          noteOwnTurn(threadId, ids.threadVersion);
          conversation.remember(question.id, ids.questionId);
          if (answerId) conversation.remember(answerId, ids.answerId);
        }
        return known;
      };
      let pending = answers.next();
      try {
        for (;;) {
          // Stop must end the run at once, even while the question is still on its way (a slow upload).
          const next = await Promise.race([pending, stopped]);
          if (!next || next.done) break;
          pending = answers.next();
          learn(next.value);
          const failure = next.value.data.failure;
          if (failure) throw new CopilotError(failure.code, failure.message);
          yield answerParts(next.value);
        }
      } finally {
        if (!abortSignal.aborted) reading.abort();
        // Leaving the screen only stops reading; Stop tells the server, once it has the turn.
        else if (isDetach(abortSignal.reason)) reading.abort();
        else {
          const showKept = (kept: TurnSnapshot) => answerId && showStopped(answerId, answerParts(kept));
          const givenUp = setTimeout(() => reading.abort(), keptWaitMs);
          const storedAnswerId = () => (answerId ? conversation.serverIdOf(answerId) : undefined);
          const ended = () => {
            const stored = storedAnswerId();
            if (answerId && stored) showEnded({ threadId, answerId, storedAnswerId: stored });
          };
          void stopAndShowKept(threadId, () => known, pending, answers, learn, showKept, ended).finally(() => {
            clearTimeout(givenUp);
            reading.abort();
          });
        }
        markStored();
      }
    },
  };
}
