import type {
  FeedbackDto,
  FeedbackRequest,
  ThreadDto,
  ThreadHeadRequest,
  ThreadHeadResponse,
  ThreadListResponse,
  ThreadUpdate,
  ThreadWithMessagesResponse,
} from '@acme/contract';
import { errorFromResponse, reached } from './copilot-error';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await reached(
    fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  if (!response.ok) throw await errorFromResponse(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

const threadPath = (threadId: string) => `/api/threads/${encodeURIComponent(threadId)}`;

/** The reader's saved conversations (the server's threads API), newest first. */
export const threadApi = {
  /** A page of them: the first, or the one after a page's `nextCursor`. */
  list: (after?: string) =>
    call<ThreadListResponse>('GET', after ? `/api/threads?after=${encodeURIComponent(after)}` : '/api/threads'),
  create: () => call<ThreadDto>('POST', '/api/threads', {}),
  get: (threadId: string) => call<ThreadWithMessagesResponse>('GET', threadPath(threadId)),
  update: (threadId: string, update: ThreadUpdate) => call<ThreadDto>('PATCH', threadPath(threadId), update),
  remove: (threadId: string) => call<void>('DELETE', threadPath(threadId)),
  /** Remembers the branch the reader switched to, by its last message: the thread reopens on it. Gives its title. */
  setHead: (threadId: string, head: ThreadHeadRequest) =>
    call<ThreadHeadResponse>('PUT', `${threadPath(threadId)}/head`, head),
  setFeedback: (messageId: string, feedback: FeedbackRequest) =>
    call<FeedbackDto>('PUT', `/api/messages/${encodeURIComponent(messageId)}/feedback`, feedback),
};
