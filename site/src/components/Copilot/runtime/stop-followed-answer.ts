import type { ThreadWithMessagesResponse } from '@acme/contract';
import { threadApi } from './thread-api';
import { stopTurn } from './turn-api';

/** The server stores a stopped answer a moment after it answers the Stop; this is how long it is looked for. */
const firstLookMs = 100;
const lastLookMs = 1600;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops an answer this page follows but did not ask (a reload mid-answer: no run of this page reads its stream), with
 * the same call as the Stop of the page that asked it, and reads the thread until the answer is stored as it ended.
 * Resolves to the thread as stored then, for the screen to settle on; null when it could not be read. When the server
 * had nothing to stop (the answer had just ended, or another instance writes it), the thread is read once as it is.
 */
export async function stopFollowedAnswer(
  threadId: string,
  answerId: string,
): Promise<ThreadWithMessagesResponse | null> {
  const stopped = await stopTurn(threadId).catch(() => false);
  for (let wait = firstLookMs; ; wait *= 2) {
    const stored = await threadApi.get(threadId).catch(() => null);
    const answer = stored?.messages.find((message) => message.id === answerId);
    if (!stored || !stopped || answer?.status !== 'running' || wait > lastLookMs) return stored;
    await pause(wait);
  }
}
