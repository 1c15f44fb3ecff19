import { type MessageDto, type TurnRequest, threadWithMessagesResponseSchema } from '@acme/contract';
import { readerKeyOf } from '../server/src/auth/reader-identity.js';
import type { Database } from '../server/src/store/database.js';
import { sessions } from '../server/src/store/schema.js';
import { readChunks, textOf, turnIds } from '../server/test-support/copilot-api.js';
import { readerCall } from './reader-call';

/** The key a reader who signed in as `email` owns rows under (their subject), read from their session. */
export async function readerKeyOfEmail(db: Database, email: string): Promise<string> {
  const session = (await db.select().from(sessions)).find((row) => row.email === email);
  if (!session) throw new Error(`${email} has no session`);
  return readerKeyOf(session);
}

/** Dev Copilot's API as one signed-in reader calls it from the handbook's own pages. */
export function readerApi(baseUrl: string, cookie: string) {
  const call = readerCall(baseUrl, cookie);

  return {
    cookie,
    call,

    async newThread(): Promise<string> {
      const response = await call('POST', '/api/threads', {});
      if (response.status !== 201) throw new Error(`POST /api/threads answered ${response.status}`);
      return ((await response.json()) as { id: string }).id;
    },

    /** Sends a turn without reading its answer, e.g. to act while the answer is still being written. */
    startTurn: (turn: TurnRequest) => call('POST', '/api/turns', turn),

    /** Asks one turn and reads its whole answer: the ids the server made, the text and the sources it streamed. */
    async ask(turn: TurnRequest) {
      const response = await call('POST', '/api/turns', turn);
      if (response.status !== 200)
        throw new Error(`POST /api/turns answered ${response.status}: ${await response.text()}`);
      const chunks = await readChunks(response);
      const sources = chunks.flatMap((chunk) => (chunk.type === 'source-url' ? [chunk.url] : []));
      return { ...turnIds(chunks), text: textOf(chunks), sources };
    },

    async stored(threadId: string) {
      const response = await call('GET', `/api/threads/${threadId}`);
      if (response.status !== 200) throw new Error(`GET /api/threads/${threadId} answered ${response.status}`);
      return threadWithMessagesResponseSchema.parse(await response.json());
    },

    async listed(status: 'regular' | 'archived') {
      const response = await call('GET', `/api/threads?status=${status}`);
      return ((await response.json()) as { threads: Array<{ id: string; title: string }> }).threads;
    },
  };
}

export type ReaderApi = ReturnType<typeof readerApi>;

/** The answers stored under one question, oldest first: its branches. */
export const answersTo = (messages: readonly MessageDto[], questionId: string) =>
  messages.filter((message) => message.parentId === questionId);
