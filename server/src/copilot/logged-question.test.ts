import { describe, expect, it } from 'vitest';
import { turnIds } from '../../test-support/copilot-api.js';
import { type CopilotApi, copilotSuite } from '../../test-support/copilot-suite.js';
import { unansweredQuestions } from '../insights/queries.js';
import { questions } from '../store/schema.js';
import { createReport } from './report/report.js';

const ada = 'ada@acme.example';

/** One stateless askAi call: `first`, a stand-in answer, then `second`. */
async function askAi(api: CopilotApi, first: string, second: string) {
  const messages = [
    { role: 'user', content: [{ type: 'text', text: first }] },
    { role: 'assistant', content: [{ type: 'text', text: 'An earlier answer.' }] },
    { role: 'user', content: [{ type: 'text', text: second }] },
  ];
  const response = await api.call('POST', '/api/askAi', { as: ada, body: { messages } });
  expect(response.status).toBe(200);
}

/** Two turns of one thread: `first`, then `second` after its answer. */
async function twoTurns(api: CopilotApi, first: string, second: string) {
  const threadId = await api.newThread(ada);
  const answered = turnIds(await api.turn({ threadId, parentId: null, text: first }, ada));
  await api.turn({ threadId, parentId: answered.answerId, text: second }, ada);
}

/** Both ways of asking: turns of a thread, and askAi. */
const ways = [
  ['a turn', twoTurns],
  ['askAi', askAi],
] as const;

describe("the questions log keeps a follow-up in the reader's own words", () => {
  const suite = copilotSuite();

  const logged = async () =>
    (await suite.store.db.select().from(questions).orderBy(questions.createdAt)).map(({ question, asked }) => ({
      question,
      asked,
    }));
  const reported = async () =>
    (await createReport(suite.store.db, { since: undefined, limit: 50 })).groups.flatMap((group) =>
      group.items.map((item) => item.question),
    );
  const onInsights = async () =>
    (
      await unansweredQuestions(suite.store.db, { from: new Date(0), to: new Date(Date.now() + 60_000), limit: 50 })
    ).map((entry) => entry.question);

  it.each(ways)(
    'logs and reports a second uncovered question of %s as typed, not searched with the first',
    async (_, ask) => {
      await ask(suite.docsOnly, 'Figma kerning?', 'Figma kerning?');

      const entries = await logged();
      expect(entries.length).toBeGreaterThan(0);
      expect(entries).toEqual(entries.map(() => ({ question: 'Figma kerning?', asked: 'Figma kerning?' })));
      expect(await reported()).toEqual(entries.map(() => 'Figma kerning?'));
      expect(await onInsights()).toEqual(entries.map(() => 'Figma kerning?'));
    },
  );

  it.each(ways)('logs no small talk of %s: thanks or "what is this?" is no gap in the handbook', async (_, ask) => {
    await ask(suite.docsOnly, 'what is this?', 'thanks!');

    expect(await logged()).toEqual([]);
    expect(await onInsights()).toEqual([]);
  });

  it.each(ways)('logs a follow-up searched with the question before it as typed, in %s', async (_, ask) => {
    await ask(suite.docsOnly, 'How do I roll back a release?', 'And the release checklist?');

    expect((await logged()).at(-1)).toEqual({
      question: 'And the release checklist?',
      asked: 'And the release checklist?',
    });
  });
});
