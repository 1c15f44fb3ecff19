import { threadWithMessagesResponseSchema } from '@acme/contract';
import type { UIMessageChunk } from 'ai';
import { expect } from 'vitest';
import { test as base } from './fixtures';
import { startServer } from './harness';
import { sessionCookieFor } from './sign-in';

export { readChunks, textOf, turnIds as turnIdsOf, verdictOf } from '../server/test-support/copilot-api.js';

type CallOptions = { headers?: Record<string, string>; signal?: AbortSignal };

/** Dev Copilot's API over real HTTP as one signed-in reader: the stateless askAi call and stored, streamed turns. */
export function copilotClient(baseUrl: string, cookie: string) {
  const call = (method: string, path: string, body?: unknown, { headers, signal }: CallOptions = {}) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        origin: baseUrl,
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal ?? null,
    });
  const newThread = async () => {
    const response = await call('POST', '/api/threads', {});
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const turn = (body: Record<string, unknown>, options?: CallOptions) => call('POST', '/api/turns', body, options);
  return {
    ask: (body: unknown, options?: CallOptions) => call('POST', '/api/askAi', body, options),
    newThread,
    turn,
    /** A first question in a new chat: the chat's id and the turn's response, unread. */
    async askInNewThread(text: string, extra: Record<string, unknown> = {}, options?: CallOptions) {
      const threadId = await newThread();
      return { threadId, response: await turn({ threadId, parentId: null, text, ...extra }, options) };
    },
    /** The chat as the server stored it. */
    async thread(threadId: string) {
      const response = await call('GET', `/api/threads/${threadId}`);
      expect(response.status).toBe(200);
      return threadWithMessagesResponseSchema.parse(await response.json());
    },
    stop: (threadId: string) => call('POST', `/api/threads/${threadId}/stop`),
  };
}

export type CopilotClient = ReturnType<typeof copilotClient>;

/** The `data-<name>` parts of a turn's stream, in order. */
export const dataOf = (chunks: readonly UIMessageChunk[], name: string) =>
  chunks.flatMap((chunk) => (chunk.type === `data-${name}` && 'data' in chunk ? [chunk.data] : []));

/** The URLs of a turn's `source-url` parts. */
export const sourceUrlsOf = (chunks: readonly UIMessageChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'source-url' ? [chunk.url] : []));

/**
 * The file's server and reader with the reader's `copilot` client, and `copilotWith` for a server of a test's own.
 * The file's server takes 1000 questions a minute: the question tables alone ask more than the default 20 (the limit
 * itself is tested in ask-rate-limit.test.ts).
 */
export const test = base
  .extend('serverEnvironment', { scope: 'file' }, { ASK_REQUESTS_PER_MINUTE: '1000' } as Record<string, string>)
  .extend('copilot', { scope: 'file' }, async ({ server, sessionCookie }) =>
    copilotClient(server.baseUrl, sessionCookie),
  )
  /** Starts another server with these variables, signed in as the file's reader; closed after the test. */
  .extend('copilotWith', async ({ readerEmail }, { onCleanup }) => {
    const started: Array<{ close: () => Promise<void> }> = [];
    onCleanup(async () => {
      for (const server of started) await server.close();
    });
    return async (environment: Record<string, string>) => {
      const server = await startServer({ ASK_REQUESTS_PER_MINUTE: '1000', ...environment });
      started.push(server);
      return copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, readerEmail));
    };
  });

/** The file's server answering with the model stand-in (`fakeModel`), which gives up after 3 s. */
export const withModel = {
  withModel: true,
  serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000', COPILOT_TIMEOUT_SECONDS: '3' },
};
