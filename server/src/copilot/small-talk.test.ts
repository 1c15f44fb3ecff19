import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { textOf, turnIds } from '../../test-support/copilot-api.js';
import { type CopilotApi, copilotSuite } from '../../test-support/copilot-suite.js';

const ada = 'ada@acme.example';

const welcome = /^You're welcome!/;
const aboutDevCopilot = /^I am Dev Copilot.*handbook.*screenshot.*chats/s;
const greeting = /^Hi! I am Dev Copilot/;

/** The JSON answer to `text` asked statelessly. */
async function askAi(api: CopilotApi, text: string) {
  const body = { messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
  const response = await api.call('POST', '/api/askAi', { as: ada, body });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: string; confidence: string; covered: boolean; sources: unknown[] };
}

/** What the widget reads of a turn's answer: its text, the confidence it streamed and the sources. */
const shownOf = (chunks: readonly UIMessageChunk[]) => ({
  text: textOf(chunks),
  confidence: chunks.flatMap((chunk) => (chunk.type === 'data-confidence' ? [chunk.data] : [])),
  sources: chunks.flatMap((chunk) => (chunk.type === 'source-url' ? [chunk.url] : [])),
});

describe('Dev Copilot answers small talk in kind (docs-only)', () => {
  const suite = copilotSuite();

  /** Asks `texts` one after another in a new thread; the chunks of the last answer, and that answer as stored. */
  async function turns(...texts: string[]) {
    const api = suite.docsOnly;
    const threadId = await api.newThread(ada);
    let parentId: string | null = null;
    let chunks: UIMessageChunk[] = [];
    for (const text of texts) {
      chunks = await api.turn({ threadId, parentId, text }, ada);
      parentId = turnIds(chunks).answerId;
    }
    const { messages } = await api.stored(threadId, ada);
    return { shown: shownOf(chunks), stored: messages.find((message) => message.id === parentId) };
  }

  it.each(['thanks!', 'thank you', 'ok thanks', 'great, thanks', 'cool'])(
    'answers thanks (%j) with a welcome over askAi, quoting nothing',
    async (text) => {
      const answer = await askAi(suite.docsOnly, text);

      expect(answer.data).toMatch(welcome);
      expect(answer).toMatchObject({ confidence: 'none', covered: false, sources: [] });
    },
  );

  it('answers thanks after an answered question with a welcome, not that answer again, and no confidence note', async () => {
    const { shown, stored } = await turns('How do I roll back a release?', 'thanks!');

    expect(shown).toEqual({ text: expect.stringMatching(welcome), confidence: [], sources: [] });
    expect(stored?.confidence).toBeNull();
  });

  it('still searches and answers a question that comes with thanks', async () => {
    const answer = await askAi(suite.docsOnly, 'thanks, but how do I roll back a release?');
    expect(answer).toMatchObject({ confidence: 'answered', covered: true });
    expect(answer.data).toContain('/deployment#rollback');

    const { shown } = await turns('thanks, but how do I roll back a release?');
    expect(shown.confidence).toEqual([{ confidence: 'answered' }]);
    expect(shown.sources).toContain('/deployment#rollback');
  });

  it.each(['what is this?', 'What can you do?', 'who are you?'])(
    'says what Dev Copilot does when asked %j, over askAi and in a turn with no confidence note',
    async (text) => {
      expect((await askAi(suite.docsOnly, text)).data).toMatch(aboutDevCopilot);

      const { shown, stored } = await turns(text);
      expect(shown).toEqual({ text: expect.stringMatching(aboutDevCopilot), confidence: [], sources: [] });
      expect(stored?.confidence).toBeNull();
    },
  );

  it('says what it does when "what is this?" is asked again, and greets a greeting without a confidence note', async () => {
    expect((await turns('what is this?', 'what is this?')).shown.text).toMatch(aboutDevCopilot);

    const { shown, stored } = await turns('hello');
    expect(shown).toEqual({ text: expect.stringMatching(greeting), confidence: [], sources: [] });
    expect(stored?.confidence).toBeNull();
  });

  it('keeps the confidence note of a question the handbook does not cover', async () => {
    const { shown, stored } = await turns('How do I rotate the Kafka broker certificates?');

    expect(shown.confidence).toEqual([{ confidence: 'none' }]);
    expect(stored?.confidence).toBe('none');
  });
});
