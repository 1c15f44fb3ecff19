import { maxQuestionBodyMarks } from '@acme/contract';
import { describe, expect, it } from 'vitest';
import { copilotApiForSuite, publicOrigin } from '../../test-support/copilot-api.js';

const ada = 'ada@acme.example';
const question = { role: 'user', content: [{ type: 'text', text: 'How do I roll back a release?' }] };

/** A question body whose last message also holds `keys` unknown keys, written as text (no object is built). */
function withUnknownKeys(keys: number): string {
  const sprawl = Array.from({ length: keys }, (_, index) => `"k${index.toString(36)}":0`).join(',');
  return `{"messages":[{"role":"user","content":[{"type":"text","text":"x"}],"attachments":[],${sprawl}}]}`;
}

/** Question bodies that are valid JSON but built to be slow to parse or to answer with a huge refusal. */
describe('a question body of sprawling JSON', () => {
  const suite = copilotApiForSuite();

  const post = (path: string, body: string) =>
    fetch(`${suite.api.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-test-user': ada, origin: publicOrigin, 'content-type': 'application/json' },
      body,
    });

  it.each(['/api/askAi', '/api/turns'])(
    '%s refuses a body of more values than a question can hold, unparsed',
    async (path) => {
      const response = await post(path, withUnknownKeys(maxQuestionBodyMarks));

      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('bad_request:ask');
      expect(error.message).toContain('too many JSON values');
    },
  );

  it('answers a question at every other limit: 50 messages of 100 parts each', async () => {
    const parts = Array.from({ length: 100 }, () => ({ type: 'text', text: 'ab' }));
    const messages = Array.from({ length: 50 }, (_, index) =>
      index === 49 ? question : { role: 'user', content: parts },
    );

    const response = await post('/api/askAi', JSON.stringify({ messages }));

    expect(response.status).toBe(200);
  });

  it('refuses a message of more than 100 text parts, saying so', async () => {
    const content = Array.from({ length: 101 }, () => ({ type: 'text', text: 'roll back' }));

    const response = await post('/api/askAi', JSON.stringify({ messages: [{ role: 'user', content }] }));

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'bad_request:ask', message: expect.stringContaining('at most 100 text parts per message') },
    });
  });

  it('names unknown keys in a refusal of readable length, not all of them', async () => {
    const response = await post('/api/askAi', withUnknownKeys(20_000));

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toContain('Unrecognized keys');
    expect(error.message.length).toBeLessThanOrEqual(5 * 300 + 4 * 2);
  });
});
