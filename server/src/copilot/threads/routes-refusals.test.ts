import { describe, expect, it } from 'vitest';
import { copilotApiForSuite, publicOrigin } from '../../../test-support/copilot-api.js';

/** Requests to the thread routes that are not valid as a whole (routes.test.ts has each field's own refusals). */
describe('thread routes refusing a request', () => {
  const ada = 'ada@acme.example';
  const suite = copilotApiForSuite();

  it('rejects a body that is not JSON with a readable 400', async () => {
    const response = await fetch(`${suite.api.baseUrl}/api/threads`, {
      method: 'POST',
      headers: { 'x-test-user': ada, origin: publicOrigin, 'content-type': 'application/json' },
      body: '{"title":',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'bad_request:input', message: 'The request body is not valid JSON.' },
    });
  });

  it('rejects an unknown list filter', async () => {
    const response = await suite.api.call('GET', '/api/threads?status=deleted', { as: ada });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_request:input' } });
  });
});
