import { beforeEach, describe, expect, it } from 'vitest';
import { answer, question } from '../../test-support/messages.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { createThread, listThreads, updateThread } from './conversations.js';
import { appendMessage, type NewMessage } from './messages.js';
import { threads } from './schema.js';

const ada = 'ada@acme.example';

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`thread titles on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    beforeEach(async () => {
      await store.db.delete(threads);
    });
    const inThread = (threadId: string, message: NewMessage) =>
      appendMessage(store.db, { reader: ada, threadId, message });

    it('renames the thread when its first question is edited, unless the reader renamed it', async () => {
      const named = await createThread(store.db, { reader: ada });
      const asked = await inThread(named.id, question('what is a SEV3?'));
      await inThread(named.id, answer('A SEV3 is…', asked.id));
      // An edit of the first question is another question without a parent.
      expect(await inThread(named.id, question('what is a SEV4?'))).toMatchObject({ threadTitle: 'what is a SEV4?' });
      expect(await inThread(named.id, question('what is a SEV5?'))).toMatchObject({ threadTitle: 'what is a SEV5?' });

      const renamed = await createThread(store.db, { reader: ada });
      await inThread(renamed.id, question('what is a SEV3?'));
      await updateThread(store.db, { reader: ada, threadId: renamed.id, title: 'Incident levels' });
      expect(await inThread(renamed.id, question('what is a SEV4?'))).toMatchObject({ threadTitle: 'Incident levels' });

      const titles = (await listThreads(store.db, { reader: ada })).threads.map((thread) => thread.title);
      expect(titles.sort()).toEqual(['Incident levels', 'what is a SEV5?']);
    });
  });
}
