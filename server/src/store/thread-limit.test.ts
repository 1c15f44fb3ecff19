import { ApiError } from '@acme/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectApiError } from '../../test-support/api-errors.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { archiveThread, countThreads, createThreadWithinLimit, deleteThread, listThreads } from './conversations.js';
import { threads } from './schema.js';

const ada = 'oidc:https://accounts.acme.example#ada';
const eve = 'oidc:https://accounts.acme.example#eve';

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`the limit of threads a reader keeps, on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(threads);
    });

    it('refuses a script filling the database with chats: at most the limit stored, even for 40 creations at once', async () => {
      const made = await Promise.allSettled(
        Array.from({ length: 40 }, () => createThreadWithinLimit(store.db, { reader: ada }, { max: 25 })),
      );

      expect(made.filter((result) => result.status === 'fulfilled')).toHaveLength(25);
      const refusals = made.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      expect(refusals).toHaveLength(15);
      for (const refusal of refusals) {
        expect(refusal).toBeInstanceOf(ApiError);
        expect(refusal).toMatchObject({ code: 'conflict:thread_limit', message: expect.stringContaining('25 chats') });
      }
      expect(await countThreads(store.db, { reader: ada })).toBe(25);
      // Another reader's limit is their own.
      expect(await createThreadWithinLimit(store.db, { reader: eve }, { max: 25 })).toMatchObject({
        title: 'New chat',
      });
    });

    it('counts archived threads, never makes room by deleting or archiving one, and a deleted one frees its place', async () => {
      const first = await createThreadWithinLimit(store.db, { reader: ada, title: 'Kept' }, { max: 2 });
      const second = await createThreadWithinLimit(store.db, { reader: ada, title: 'Archived' }, { max: 2 });
      await archiveThread(store.db, { reader: ada, threadId: second.id });

      await expectApiError(createThreadWithinLimit(store.db, { reader: ada }, { max: 2 }), 'conflict:thread_limit');
      const kept = (await listThreads(store.db, { reader: ada })).threads;
      expect(Object.fromEntries(kept.map((thread) => [thread.id, thread.status]))).toEqual({
        [first.id]: 'regular',
        [second.id]: 'archived',
      });

      await deleteThread(store.db, { reader: ada, threadId: first.id });
      expect(await createThreadWithinLimit(store.db, { reader: ada, title: 'Next' }, { max: 2 })).toMatchObject({
        title: 'Next',
      });
      expect(await countThreads(store.db, { reader: ada })).toBe(2);
    });
  });
}
