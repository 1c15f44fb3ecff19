import { expect } from 'vitest';
import { test, withModel } from './ask-fixtures';

/**
 * POST /api/askAi with an embedding model configured as well: the sections are embedded at start and each question
 * once, against a local server speaking the OpenAI embeddings protocol (ask-model.test.ts has the rest of askAi with a
 * model).
 */

test.override(withModel);

const question = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

test('embeds every doc section at start, then each question, and still answers', async ({ copilotWith, fakeModel }) => {
  fakeModel.behave({ reply: 'See [the runner guide](/setting-up-gitlab-runner).' });
  const withEmbeddings = await copilotWith({
    COPILOT_PROVIDER: 'openai-compatible',
    COPILOT_MODEL: 'test-model',
    COPILOT_EMBEDDING_MODEL: 'embed-test',
    COPILOT_BASE_URL: `${fakeModel.url}/v1`,
  });
  const embeddedInputs = () =>
    fakeModel.received
      .filter((request) => request.protocol === 'embeddings')
      .reduce((total, request) => total + (request.body.input as unknown[]).length, 0);
  // Embedding runs in the background after start; wait until it has covered the docs and gone quiet.
  await expect.poll(embeddedInputs, { timeout: 10_000 }).toBeGreaterThan(500);
  let settled = -1;
  while (settled !== embeddedInputs()) {
    settled = embeddedInputs();
    await sleep(300);
  }
  const beforeQuestion = embeddedInputs();
  const response = await withEmbeddings.ask({ messages: [question('How do I register a GitLab runner?')] });
  expect(response.status).toBe(200);
  expect(embeddedInputs()).toBe(beforeQuestion + 1);
  expect(fakeModel.received.at(-1)?.protocol).toBe('openai');
  const sent = (fakeModel.received.at(-1)?.body.messages ?? []) as Array<{ content: unknown }>;
  expect(String(sent[0]?.content)).toContain('URL: /setting-up-gitlab-runner');
});
