import { describe, expect, it } from 'vitest';
import { textOf, waitFor } from '../../../test-support/copilot-api.js';
import { copilotSuite } from '../../../test-support/copilot-suite.js';

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
    expect(answer?.content[0]?.text).toBe('one two three ');
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
