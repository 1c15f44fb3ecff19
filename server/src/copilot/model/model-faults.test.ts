import { describe, expect, it } from 'vitest';
import { textOf, verdictOf, waitFor } from '../../../test-support/copilot-api.js';
import { copilotSuite } from '../../../test-support/copilot-suite.js';
import type { Behaviour } from '../../../test-support/fake-model-server.js';
import { storedText } from '../../../test-support/messages.js';
import { questions } from '../../store/schema.js';
import { modelUnavailableNotice } from '../answer/model-fallback.js';

const ada = 'ada@acme.example';

/** A provider that misbehaves mid-answer (the suite's model allows 500 output tokens, so about 3,000 characters). */
describe('model stream faults', () => {
  const suite = copilotSuite();

  it('reportsACutStreamAsUnreachable: a stream that breaks off part-way is the model unreachable, not "HTTP 200"', async () => {
    suite.model.behave({ reply: 'one two three four five six', cutAfter: 3 });
    const threadId = await suite.withModel.newThread(ada);

    const chunks = await suite.withModel.turn({ threadId, parentId: null, text: 'How do I roll back?' }, ada);

    const failure = chunks.find((chunk) => chunk.type === 'data-failure');
    expect(failure).toMatchObject({ data: { code: 'model_unreachable:ask' } });
    expect(JSON.stringify(failure)).not.toContain('HTTP 200');
    const answer = (await suite.withModel.stored(threadId, ada)).messages[1];
    expect(answer?.status).toBe('error');
    expect(storedText(answer)).toBe('one two three ');
  });

  it.for<[string, Behaviour]>([
    ['an HTTP 500', { status: 500 }],
    ['rate-limiting (HTTP 429)', { status: 429 }],
    ['a connection closed before the first word', { cutAfter: 0 }],
    ['a malformed first chunk', { malformed: true }],
  ])('answersFromTheDocsWhenTheModelFailsBeforeAWord: %s', async ([, behaviour]) => {
    suite.model.behave(behaviour);
    const question = 'How do I roll back a release?';
    const docsOnly = await suite.docsOnly.turn(
      { threadId: await suite.docsOnly.newThread(ada), parentId: null, text: question },
      ada,
    );
    const threadId = await suite.withModel.newThread(ada);

    const chunks = await suite.withModel.turn({ threadId, parentId: null, text: question }, ada);

    expect(suite.model.received.length).toBeGreaterThan(0);
    expect(chunks.find((chunk) => chunk.type === 'data-failure')).toBeUndefined();
    expect(await verdictOf(suite.store, chunks)).toMatchObject({ mode: 'docs-only', covered: true });
    // One line saying whose answer it is, then exactly what docs-only mode answers, with the same sources.
    expect(textOf(chunks)).toBe(`${modelUnavailableNotice}\n\n${textOf(docsOnly)}`);
    const sourcesOf = (answer: typeof chunks) =>
      answer.flatMap((chunk) => (chunk.type === 'source-url' ? [chunk.url] : []));
    expect(sourcesOf(chunks)).toEqual(sourcesOf(docsOnly));
    expect(sourcesOf(chunks)).toContain('/deployment#rollback');
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const answer = (await suite.withModel.stored(threadId, ada)).messages[1];
    expect(answer).toMatchObject({ status: 'complete', content: [{ text: textOf(chunks) }] });
    expect(answer?.sources.map((source) => source.url)).toEqual(sourcesOf(chunks));
    const logged = await suite.store.db.select().from(questions);
    expect(logged.find((entry) => entry.answerMessageId === answer?.id)).toMatchObject({
      mode: 'docs-only',
      covered: true,
    });
  });

  it('givesNoDocsAnswerToAReaderWhoStopped: Stop while the model has written nothing ends the answer, stopped', async () => {
    suite.model.behave({ hang: true });
    const threadId = await suite.withModel.newThread(ada);
    const answering = suite.withModel.turn({ threadId, parentId: null, text: 'How do I roll back a release?' }, ada);
    await waitFor(async () => suite.model.received.length === 1, 'the question to reach the model');

    expect((await suite.withModel.call('POST', `/api/threads/${threadId}/stop`, { as: ada })).status).toBe(204);

    const chunks = await answering;
    expect(chunks.at(-1)).toMatchObject({ type: 'abort' });
    expect(textOf(chunks)).toBe('');
    const answer = (await suite.withModel.stored(threadId, ada)).messages[1];
    expect(answer).toMatchObject({ status: 'incomplete', sources: [] });
    expect(await suite.store.db.select().from(questions)).toEqual([]);
  });

  it('capsAnAnswerPastItsTokenLimit: a provider that ignores the limit is cut and the answer says so', async () => {
    suite.model.behave({ reply: Array.from({ length: 2000 }, () => 'word ') });
    const threadId = await suite.withModel.newThread(ada);

    const chunks = await suite.withModel.turn({ threadId, parentId: null, text: 'Tell me everything' }, ada);

    const text = textOf(chunks);
    expect(text.length).toBeLessThan(3200);
    expect(text).toContain('The answer was cut off at its length limit');
    const answer = (await suite.withModel.stored(threadId, ada)).messages[1];
    expect(answer?.status).toBe('complete');
    await waitFor(async () => suite.model.received.at(-1)?.closedEarlyAt !== undefined, 'the provider request to end');
  });
});
