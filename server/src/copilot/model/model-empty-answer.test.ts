import type { UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCopilotApi, textOf, verdictOf } from '../../../test-support/copilot-api.js';
import { type CopilotApi, copilotSuite } from '../../../test-support/copilot-suite.js';
import type { Behaviour } from '../../../test-support/fake-model-server.js';
import { storedText } from '../../../test-support/messages.js';
import { questions } from '../../store/schema.js';
import { modelSilentNotice, modelUnavailableNotice, searchedButSilentNotice } from '../answer/model-fallback.js';

const ada = 'ada@acme.example';
const providers = ['openai', 'anthropic', 'google'] as const;

const search = (query: string) => ({ name: 'search_handbook', input: { query } });
const status = (confidence: string) => ({ name: 'answer_status', input: { confidence, cited: [] } });

const sourcesOf = (chunks: readonly UIMessageChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'source-url' ? [chunk.url] : []));

/**
 * A model that was reached but wrote no answer: it only searched (again) in its last step, or sent nothing but its
 * verdict. The docs answer instead, from the sections it was given and found, and say so honestly: the model was not
 * "unreachable". Each provider's wire format, since each streams an empty step its own way.
 */
describe('a model that writes no answer', () => {
  const suite = copilotSuite();
  const apis: Partial<Record<(typeof providers)[number], CopilotApi>> = {};
  beforeAll(async () => {
    apis.openai = suite.withModel;
    apis.anthropic = await startCopilotApi(suite.store, { modelUrl: suite.model.url, provider: 'anthropic' });
    apis.google = await startCopilotApi(suite.store, { modelUrl: suite.model.url, provider: 'google' });
  });
  afterAll(async () => {
    await apis.anthropic?.close();
    await apis.google?.close();
  });
  const apiFor = (provider: (typeof providers)[number]) => {
    const api = apis[provider];
    if (!api) throw new Error(`no API for ${provider}`);
    return api;
  };

  it.for(providers)('answersFromWhatItsSearchFoundWhenItOnlySearchesAgain: %s', async (provider) => {
    const api = apiFor(provider);
    const question = 'who lets me onto the preprod box?';
    suite.model.behave([
      { reply: [], toolCalls: [search('staging access')] },
      { reply: [], toolCalls: [search('staging access tech lead')] },
    ]);
    const threadId = await api.newThread(ada);

    const chunks = await api.turn({ threadId, parentId: null, text: question }, ada);

    expect(suite.model.received).toHaveLength(2);
    expect(suite.model.received.every((request) => request.protocol === provider)).toBe(true);
    const text = textOf(chunks);
    expect(text).not.toContain(modelUnavailableNotice);
    expect(text.startsWith(`${searchedButSilentNotice}\n\n`)).toBe(true);
    // The section its one search found is what the docs answer quotes, as the closest the handbook comes.
    expect(text).toContain('[FAQs › Staging access](/faqs#staging-access)');
    expect(text).toContain('Ask the tech lead for staging access');
    expect(await verdictOf(suite.store, chunks)).toEqual({ mode: 'docs-only', covered: false, confidence: 'closest' });
    expect(sourcesOf(chunks)).toEqual(['/faqs#staging-access']);
    expect(chunks.find((chunk) => chunk.type === 'data-failure')).toBeUndefined();
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    // The search it made is shown before the text and kept in the thread.
    const searches = chunks.filter((chunk) => chunk.type === 'tool-input-available');
    expect(searches).toMatchObject([{ toolName: 'search_handbook', input: { query: 'staging access' } }]);
    expect(chunks.indexOf(searches[0] as UIMessageChunk)).toBeLessThan(
      chunks.findIndex((chunk) => chunk.type === 'text-start'),
    );
    const stored = (await api.stored(threadId, ada)).messages[1];
    expect(stored).toMatchObject({ status: 'complete', confidence: 'closest' });
    expect(stored?.content[0]).toMatchObject({ type: 'tool-call', args: { query: 'staging access' } });
    expect(storedText(stored)).toBe(text);
    expect(stored?.sources.map((source) => source.url)).toEqual(['/faqs#staging-access']);
  });

  it.for<[string, Behaviour]>([
    ['no text and no call', { reply: [] }],
    ['only blanks', { reply: ['  ', '\n'] }],
    ['only its verdict', { reply: [], toolCalls: [status('answered')] }],
  ])('answersFromTheSectionsItWasGivenWhenItSendsNoWords: %s', async ([, behaviour]) => {
    const question = 'How do I roll back a release?';
    const docsOnly = await suite.docsOnly.turn(
      { threadId: await suite.docsOnly.newThread(ada), parentId: null, text: question },
      ada,
    );
    for (const provider of providers) {
      suite.model.behave(behaviour);
      await suite.store.db.delete(questions);
      const threadId = await apiFor(provider).newThread(ada);

      const chunks = await apiFor(provider).turn({ threadId, parentId: null, text: question }, ada);

      expect(suite.model.received.at(-1)?.protocol).toBe(provider);
      expect(textOf(chunks)).toBe(`${modelSilentNotice}\n\n${textOf(docsOnly)}`);
      expect(await verdictOf(suite.store, chunks)).toEqual({
        mode: 'docs-only',
        covered: true,
        confidence: 'answered',
      });
      expect(sourcesOf(chunks)).toEqual(sourcesOf(docsOnly));
      const logged = await suite.store.db.select().from(questions);
      expect(logged).toMatchObject([{ mode: 'docs-only', covered: true }]);
    }
  });

  it('saysTheSameOverAskAi: the JSON answer is the docs answer with the honest line', async () => {
    suite.model.behave([
      { reply: [], toolCalls: [search('staging access')] },
      { reply: [], toolCalls: [search('again')] },
    ]);
    const response = await suite.withModel.call('POST', '/api/askAi', {
      as: ada,
      body: { messages: [{ role: 'user', content: [{ type: 'text', text: 'who lets me onto the preprod box?' }] }] },
    });

    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer).toMatchObject({ mode: 'docs-only', confidence: 'closest', covered: false });
    expect(answer.data.startsWith(searchedButSilentNotice)).toBe(true);
    expect(answer.sources).toEqual([{ title: 'FAQs › Staging access', url: '/faqs#staging-access' }]);
  });
});
