import { randomUUID } from 'node:crypto';
import { errorDetails, maxThreadsPerReader, threadSchema } from '@acme/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { copilotApiForSuite, publicOrigin } from '../../../test-support/copilot-api.js';
import { threads } from '../../store/schema.js';

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

  it('refuses a new chat past the number a reader keeps with 409 and how to go on, until one is deleted', async () => {
    const first = threadSchema.parse(await (await suite.api.call('POST', '/api/threads', { as: ada })).json());
    // The store keys threads on the reader's subject: read Ada's key off the thread she made, then fill her list.
    const [{ reader } = { reader: '' }] = await suite.store.db
      .select({ reader: threads.reader })
      .from(threads)
      .where(eq(threads.id, first.id));
    await suite.store.db.insert(threads).values(
      Array.from({ length: maxThreadsPerReader - 1 }, () => ({
        id: randomUUID(),
        reader,
        status: 'archived' as const,
      })),
    );

    const refused = await suite.api.call('POST', '/api/threads', { as: ada });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: { code: 'conflict:thread_limit', message: errorDetails.threadLimit(maxThreadsPerReader) },
    });
    expect(errorDetails.threadLimit(maxThreadsPerReader)).toMatch(/1,000 chats.*Delete chats you no longer need/);
    // Another reader's list is their own.
    expect((await suite.api.call('POST', '/api/threads', { as: 'eve@acme.example' })).status).toBe(201);

    expect((await suite.api.call('DELETE', `/api/threads/${first.id}`, { as: ada })).status).toBe(204);
    expect((await suite.api.call('POST', '/api/threads', { as: ada })).status).toBe(201);
  });
});
