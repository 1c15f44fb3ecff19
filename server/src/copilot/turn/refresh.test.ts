import { describe, expect, it } from 'vitest';
import { turnIds } from '../../../test-support/copilot-api.js';
import { copilotSuite } from '../../../test-support/copilot-suite.js';

const ada = 'ada@acme.example';

describe('Refresh on a docs-only answer', () => {
  const suite = copilotSuite();
  const sourcesOf = async (threadId: string, answerId: string) => {
    const { messages } = await suite.docsOnly.stored(threadId, ada);
    return messages.find((message) => message.id === answerId)?.sources.map((source) => source.url) ?? [];
  };

  it('leads with another section than the answers before it, not the same answer again', async () => {
    const threadId = await suite.docsOnly.newThread(ada);
    const first = turnIds(
      await suite.docsOnly.turn({ threadId, parentId: null, text: 'How do I deploy a release?' }, ada),
    );
    const again = turnIds(await suite.docsOnly.turn({ threadId, retryOf: first.questionId }, ada));

    const [firstLead] = await sourcesOf(threadId, first.answerId);
    const [secondLead] = await sourcesOf(threadId, again.answerId);
    expect(firstLead).toBe('/deployment#release-checklist');
    expect(secondLead).toBeDefined();
    expect(secondLead).not.toBe(firstLead);
    // The first answer is kept as its own branch, as it was.
    expect(await sourcesOf(threadId, first.answerId)).toContain(firstLead);
  });

  it('says that it leads with another section, and links the one the first answer led with', async () => {
    const threadId = await suite.docsOnly.newThread(ada);
    const first = turnIds(
      await suite.docsOnly.turn({ threadId, parentId: null, text: 'How do I deploy a release?' }, ada),
    );
    const again = turnIds(await suite.docsOnly.turn({ threadId, retryOf: first.questionId }, ada));

    const { messages } = await suite.docsOnly.stored(threadId, ada);
    const textOf = (id: string) => JSON.stringify(messages.find((message) => message.id === id)?.content ?? []);
    expect(textOf(again.answerId)).toContain('Asked again, this answer leads with another part of the handbook');
    expect(textOf(again.answerId)).toContain('(/deployment#release-checklist)');
    expect(textOf(first.answerId)).not.toContain('Asked again');
  });
});
