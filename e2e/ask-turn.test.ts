import type { AskAiResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { findReportItems } from '../server/src/store/questions.js';
import { questions } from '../server/src/store/schema.js';
import { dataOf, readChunks, sourceUrlsOf, test, textOf, turnIdsOf, verdictOf } from './ask-fixtures';
import { sessionCookieFor } from './sign-in';
import { readerKeyOfEmail } from './threads-api';

/** POST /api/turns without a model: the widget's question, streamed as an AI SDK UI message stream and stored. */

const question = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });
const uncovered = 'How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?';
/** The TTL pages come near, but the handbook never names DynamoDB. */
const closeOnly = 'How do I set a TTL policy on a DynamoDB table?';

describe('a turn, answered from the docs', () => {
  test('streams the answer askAi gives, and stores it under the ids it streamed', async ({ copilot, server }) => {
    const text = 'How do I register a GitLab runner?';
    const json = (await (await copilot.ask({ messages: [question(text)] })).json()) as AskAiResponse;
    const { threadId, response } = await copilot.askInNewThread(text);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const chunks = await readChunks(response);
    const ids = turnIdsOf(chunks);
    expect(chunks[0]).toEqual({ type: 'start', messageId: ids.answerId });
    expect(dataOf(chunks, 'confidence')).toEqual([{ confidence: 'answered' }]);
    expect(textOf(chunks)).toBe(json.data);
    expect(sourceUrlsOf(chunks)).toEqual(json.sources.map((source) => source.url));
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });

    const { thread, messages } = await copilot.thread(threadId);
    expect(thread.title).toBe(text);
    expect(messages.map((message) => [message.id, message.role, message.parentId, message.status])).toEqual([
      [ids.questionId, 'user', null, 'complete'],
      [ids.answerId, 'assistant', ids.questionId, 'complete'],
    ]);
    expect(messages[1]?.content).toEqual([{ type: 'text', text: json.data }]);
    expect(messages[1]?.sources).toEqual(json.sources);
    expect(await verdictOf(server.store, chunks)).toEqual({ mode: 'docs-only', covered: true, confidence: 'answered' });
  });

  test('sends only the parts the widget reads: the closest pages of an uncovered question are in its text', async ({
    copilot,
  }) => {
    const json = (await (await copilot.ask({ messages: [question(uncovered)] })).json()) as AskAiResponse;
    const chunks = await readChunks((await copilot.askInNewThread(uncovered)).response);
    expect(new Set(chunks.map((chunk) => chunk.type))).toEqual(
      new Set(['start', 'data-turn', 'text-start', 'text-delta', 'data-link', 'data-confidence', 'text-end', 'finish']),
    );
    expect(dataOf(chunks, 'confidence')).toEqual([{ confidence: 'none' }]);
    expect(sourceUrlsOf(chunks)).toEqual([]);
    expect(json.closest.length).toBeGreaterThan(0);
    for (const page of json.closest) {
      expect(page.url.includes('#')).toBe(false);
      expect(textOf(chunks)).toContain(`(${page.url})`);
    }
  });

  test('streams how sure the answer is, as askAi says it, and the stored thread keeps it', async ({ copilot }) => {
    for (const [text, confidence] of [
      ['How do I use WSL?', 'answered'],
      [closeOnly, 'closest'],
      [uncovered, 'none'],
    ] as const) {
      const json = (await (await copilot.ask({ messages: [question(text)] })).json()) as AskAiResponse;
      expect(json.confidence).toBe(confidence);
      const { threadId, response } = await copilot.askInNewThread(text);
      const chunks = await readChunks(response);
      expect(dataOf(chunks, 'confidence')).toEqual([{ confidence }]);
      expect(sourceUrlsOf(chunks)).toEqual(json.sources.map((source) => source.url));
      const { messages } = await copilot.thread(threadId);
      expect(messages.map((message) => message.confidence)).toEqual([null, confidence]);
    }
  });

  test('answers a short follow-up with the question before it, from the stored chat', async ({ copilot }) => {
    const { threadId, response } = await copilot.askInNewThread('How do I create a TTL policy in Firestore?');
    const first = turnIdsOf(await readChunks(response));
    const followUp = await readChunks(
      await copilot.turn({ threadId, parentId: first.answerId, text: 'and with gcloud?' }),
    );
    // Asked alone, "and with gcloud?" finds the gcloud quick reference; after the TTL question, the TTL page.
    expect(sourceUrlsOf(followUp)[0]).toMatch(/^\/firestore-ttl#/);
    const { messages } = await copilot.thread(threadId);
    expect(messages.find((message) => message.id === turnIdsOf(followUp).questionId)?.parentId).toBe(first.answerId);
  });

  test('logs each answered turn for the maintainers under the answer id it streamed', async ({
    copilot,
    server,
    readerEmail,
  }) => {
    const covered = turnIdsOf(await readChunks((await copilot.askInNewThread('How do I use WSL?')).response));
    const notCovered = turnIdsOf(await readChunks((await copilot.askInNewThread(uncovered)).response));
    const close = turnIdsOf(await readChunks((await copilot.askInNewThread(closeOnly)).response));
    const logged = await server.store.db.select().from(questions);
    const loggedAs = (answerId: string) => logged.find((row) => row.answerMessageId === answerId);
    const reader = await readerKeyOfEmail(server.store.db, readerEmail);
    expect(loggedAs(covered.answerId)).toMatchObject({
      reader,
      covered: true,
      confidence: 'answered',
      mode: 'docs-only',
    });
    expect(loggedAs(notCovered.answerId)).toMatchObject({ question: uncovered, covered: false, confidence: 'none' });
    expect(loggedAs(close.answerId)).toMatchObject({ question: closeOnly, covered: false, confidence: 'closest' });
    const report = await findReportItems(server.store.db, { limit: 1000 });
    expect(report.map((item) => item.answerMessageId)).toContain(notCovered.answerId);
    expect(report.map((item) => item.answerMessageId)).not.toContain(covered.answerId);
  });
});

describe('who may start a turn', () => {
  test('refuses without a session (401), for a not-allowed account (403), from a foreign origin (403)', async ({
    copilot,
    server,
  }) => {
    const threadId = await copilot.newThread();
    const body = { threadId, parentId: null, text: 'hello there' };
    const notAllowed = await sessionCookieFor(server.baseUrl, 'asker@gmail.com');
    expect((await copilot.turn(body, { headers: { cookie: '' } })).status).toBe(401);
    expect((await copilot.turn(body, { headers: { cookie: notAllowed } })).status).toBe(403);
    const foreign = await copilot.turn(body, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('forbidden:origin');
    expect((await copilot.thread(threadId)).messages).toEqual([]);
  });
});
