import { errorFromResponse } from './copilot-error';
import type { AppendMessageBody, MessageDto, ThreadDto } from './wire-types';

/** Browsers let a keepalive request outlive the page only while all of them together stay under 64 KiB. */
const keepaliveLimit = 48 * 1024;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const json = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json,
    // A write already on its way is finished even if the reader leaves the page meanwhile.
    keepalive: json !== undefined && new TextEncoder().encode(json).length < keepaliveLimit,
  });
  if (!response.ok) throw await errorFromResponse(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The reader's saved conversations (server/src/copilot/threads/routes.ts), newest first. */
export const threadApi = {
  list: (status?: ThreadDto['status']) =>
    call<{ threads: ThreadDto[] }>('GET', `/api/threads${status ? `?status=${status}` : ''}`).then((r) => r.threads),
  create: () => call<ThreadDto>('POST', '/api/threads', {}),
  get: (threadId: string) =>
    call<{ thread: ThreadDto; messages: MessageDto[] }>('GET', `/api/threads/${encodeURIComponent(threadId)}`),
  update: (threadId: string, update: { title?: string; status?: ThreadDto['status'] }) =>
    call<ThreadDto>('PATCH', `/api/threads/${encodeURIComponent(threadId)}`, update),
  remove: (threadId: string) => call<void>('DELETE', `/api/threads/${encodeURIComponent(threadId)}`),
  appendMessage: (threadId: string, message: AppendMessageBody) =>
    call<MessageDto>('POST', `/api/threads/${encodeURIComponent(threadId)}/messages`, message),
  setFeedback: (messageId: string, rating: 'positive' | 'negative', comment?: string) =>
    call<unknown>('PUT', `/api/messages/${encodeURIComponent(messageId)}/feedback`, {
      rating,
      ...(comment ? { comment } : {}),
    }),
};
