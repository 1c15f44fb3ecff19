import { describe, expect, it } from 'vitest';
import { copilotApiForSuite, publicOrigin } from '../../test-support/copilot-api.js';

const ada = 'ada@acme.example';

/** Every endpoint of Dev Copilot's API, each with a body it could accept. */
const everyEndpoint: [string, string, unknown][] = [
  ['GET', '/api/threads', undefined],
  ['POST', '/api/threads', {}],
  ['GET', '/api/threads/t1', undefined],
  ['PATCH', '/api/threads/t1', { title: 'Mine' }],
  ['DELETE', '/api/threads/t1', undefined],
  ['POST', '/api/threads/t1/stop', undefined],
  ['PUT', '/api/threads/t1/head', { messageId: 'm1' }],
  ['POST', '/api/turns', { threadId: 't1', parentId: null, text: 'How do I roll back?' }],
  ['POST', '/api/askAi', { messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I roll back?' }] }] }],
  ['PUT', '/api/messages/m1/feedback', { rating: 'positive' }],
  ['DELETE', '/api/messages/m1/feedback', undefined],
];

describe("Dev Copilot's API", () => {
  const suite = copilotApiForSuite();

  it.each(everyEndpoint)('rejectsSignedOutReader: %s %s answers 401 without caching', async (method, path, body) => {
    const response = await suite.api.call(method, path, { body });

    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized:session' } });
  });

  it.each(everyEndpoint)('rejectsSignedInReaderWithoutAccess: %s %s answers 403', async (method, path, body) => {
    const response = await fetch(`${suite.api.baseUrl}${path}`, {
      method,
      headers: {
        'x-test-user': ada,
        'x-test-not-allowed': '1',
        origin: publicOrigin,
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden:access' } });
  });

  it.each(everyEndpoint.filter(([method]) => method !== 'GET'))(
    'rejectsCrossSiteChange: %s %s from another origin or none answers 403',
    async (method, path, body) => {
      for (const origin of ['https://evil.example', 'https://handbook.acme.example.evil.example', null]) {
        const response = await suite.api.call(method, path, { as: ada, origin, body });

        expect(response.status, `origin ${origin}`).toBe(403);
        expect(await response.json()).toMatchObject({ error: { code: 'forbidden:origin' } });
      }
    },
  );

  it('reads without an Origin header, as a same-origin GET sends none', async () => {
    const response = await suite.api.call('GET', '/api/threads', { as: ada, origin: null });

    expect(response.status).toBe(200);
  });
});
