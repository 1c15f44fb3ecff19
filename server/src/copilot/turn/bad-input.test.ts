import { describe, expect, it } from 'vitest';
import { textOf, turnIds } from '../../../test-support/copilot-api.js';
import { copilotSuite } from '../../../test-support/copilot-suite.js';
import { storedText } from '../../../test-support/messages.js';
import { questions } from '../../store/schema.js';

const ada = 'ada@acme.example';

/** What a turn refuses, and what it cleans: nothing a reader or a model sends may fail the store. */
describe('bad input to a turn', () => {
  const suite = copilotSuite();

  it.each([
    [{ parentId: null, retryOf: 'x' }, 'give either parentId'],
    [{}, 'give either parentId'],
    [{ parentId: null, text: '   ' }, 'the question is empty'],
    [{ parentId: null, text: 'x'.repeat(32_001) }, 'text must be at most 32000 characters'],
    [{ parentId: '__optimistic__/1', text: 'hi' }, 'parentId: ids are 1-100'],
    [{ parentId: null, text: 'hi', answer: 'I say so' }, 'Unrecognized key: "answer"'],
  ])('rejects a bad turn (%#) with a 400 that says why', async (body, message) => {
    const threadId = await suite.docsOnly.newThread(ada);

    const response = await suite.docsOnly.call('POST', '/api/turns', { as: ada, body: { threadId, ...body } });

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('bad_request:ask');
    expect(error.message).toContain(message);
  });

  it('refuses to place a question after a question, or to refresh an answer', async () => {
    const threadId = await suite.docsOnly.newThread(ada);
    const first = turnIds(await suite.docsOnly.turn({ threadId, parentId: null, text: 'How do I roll back?' }, ada));

    for (const body of [
      { threadId, parentId: first.questionId, text: 'again' },
      { threadId, retryOf: first.answerId },
    ]) {
      const response = await suite.docsOnly.call('POST', '/api/turns', { as: ada, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'bad_request:parent_id' } });
    }
  });

  it('rejects an image that is not what it says with a 400 and stores nothing', async () => {
    const threadId = await suite.docsOnly.newThread(ada);

    const response = await suite.docsOnly.call('POST', '/api/turns', {
      as: ada,
      body: {
        threadId,
        parentId: null,
        text: 'What is this?',
        attachments: [
          { type: 'image', contentType: 'image/png', content: Buffer.from('GIF89a....').toString('base64') },
        ],
      },
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_request:attachment' } });
    expect((await suite.docsOnly.stored(threadId, ada)).messages).toEqual([]);
  });

  it('storesNulAndLoneSurrogatesCleaned: a question, a title and a rating reason with NUL or a lone surrogate are kept without them', async () => {
    const threadId = await suite.docsOnly.newThread(ada);
    const chunks = await suite.docsOnly.turn(
      { threadId, parentId: null, text: 'roll\u0000 back\ud800 a release' },
      ada,
    );
    const { answerId } = turnIds(chunks);
    const renamed = await suite.docsOnly.call('PATCH', `/api/threads/${threadId}`, {
      as: ada,
      body: { title: 'Roll\u0000backs' },
    });
    const rated = await suite.docsOnly.call('PUT', `/api/messages/${answerId}/feedback`, {
      as: ada,
      body: { rating: 'negative', comment: 'too\u0000 short\udc00' },
    });
    const created = await suite.docsOnly.call('POST', '/api/threads', { as: ada, body: { title: 'New\u0000 chat' } });
    const blank = await suite.docsOnly.call('POST', '/api/threads', { as: ada, body: { title: '\u0000\u0000' } });

    expect([renamed.status, rated.status, created.status, blank.status]).toEqual([200, 200, 201, 400]);
    const { thread, messages } = await suite.docsOnly.stored(threadId, ada);
    expect(thread.title).toBe('Rollbacks');
    expect(storedText(messages[0])).toBe('roll back\ufffd a release');
    expect(messages[1]?.feedback?.comment).toBe('too short\ufffd');
    expect(((await created.json()) as { title: string }).title).toBe('New chat');
  });

  it('storesModelTextCleaned: an answer whose model writes NUL is stored complete, without it', async () => {
    suite.model.behave({ reply: ['Roll back\u0000 with ', 'the job.'] });
    const threadId = await suite.withModel.newThread(ada);

    const chunks = await suite.withModel.turn({ threadId, parentId: null, text: 'How do I roll back?' }, ada);

    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const answer = (await suite.withModel.stored(threadId, ada)).messages[1];
    expect(answer?.status).toBe('complete');
    expect(storedText(answer)).toBe('Roll back with the job.');
    expect(textOf(chunks)).toContain('the job.');
  });

  it('answersAskAiWithNul: the stateless call takes NUL in a question and logs it cleaned', async () => {
    const response = await suite.docsOnly.call('POST', '/api/askAi', {
      as: ada,
      body: { messages: [{ role: 'user', content: [{ type: 'text', text: 'roll\u0000back' }], attachments: [] }] },
    });

    expect(response.status).toBe(200);
    const logged = await suite.store.db.select().from(questions);
    expect(logged.map((entry) => entry.question)).toEqual(['rollback']);
  });
});
