import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectApiError } from '../../test-support/api-errors.js';
import { answer, question } from '../../test-support/messages.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { serverDirectory } from '../server-directory.js';
import { createThread, deleteThread, getThreadWithMessages, listThreads, renameThread } from './conversations.js';
import { openStore } from './database.js';
import { claimLegacyReaderRows } from './legacy-rows.js';
import { appendMessage, setFeedback } from './messages.js';
import { recordQuestion } from './questions.js';
import { feedback, questions, sessions, threads } from './schema.js';

// The store compares whatever keys it is given, exactly; these are the keys sign-in makes (auth/reader-identity.ts),
// written out here so the store's tests do not reach into auth/.
const readerKeyOf = ({ issuer, subject }: { issuer: string; subject: string }) => `oidc:${issuer}#${subject}`;
/** As sign-in keys rows from before migration 0006: the stored address, A-Z folded only. */
const legacyReaderKey = (email: string) => `email:${email.replace(/[A-Z]/g, (letter) => letter.toLowerCase())}`;

const google = 'https://accounts.google.com';
const kate = readerKeyOf({ issuer: google, subject: '108' });
/** Another account, whose subject differs from Kate's only as the Kelvin sign does from K, or by case. */
const others = [
  readerKeyOf({ issuer: google, subject: '\u212A108' }),
  readerKeyOf({ issuer: google, subject: 'K108' }),
  readerKeyOf({ issuer: 'https://other-idp.example', subject: '108' }),
];
const kateCased = readerKeyOf({ issuer: google, subject: 'k108' });

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`readers on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(threads);
      await store.db.delete(questions);
    });

    it('keeps two subjects apart whatever their keys fold to', async () => {
      const mine = await createThread(store.db, { reader: kateCased, title: 'Mine' });
      const asked = await appendMessage(store.db, { reader: kateCased, threadId: mine.id, message: question('Q?') });
      const answered = await appendMessage(store.db, {
        reader: kateCased,
        threadId: mine.id,
        message: answer('A.', asked.id),
      });
      for (const other of [...others, readerKeyOf({ issuer: google, subject: '108' })]) {
        expect((await listThreads(store.db, { reader: other })).threads).toEqual([]);
        expect(await getThreadWithMessages(store.db, { reader: other, threadId: mine.id })).toBeUndefined();
        await expectApiError(
          renameThread(store.db, { reader: other, threadId: mine.id, title: 'x' }),
          'not_found:thread',
        );
        await expectApiError(
          setFeedback(store.db, { reader: other, messageId: answered.id, rating: 'negative' }),
          'not_found:message',
        );
        await expectApiError(deleteThread(store.db, { reader: other, threadId: mine.id }), 'not_found:thread');
      }
      expect((await listThreads(store.db, { reader: kateCased })).threads).toMatchObject([
        { id: mine.id, title: 'Mine' },
      ]);
    });

    it('hands rows stored under an address to the first subject signed in with that exact address', async () => {
      await store.db.insert(threads).values([
        { id: 'legacy-kate', reader: 'email:kate2@acme.dev', title: 'Before subjects' },
        { id: 'legacy-kelvin', reader: 'email:\u212Aate2@acme.dev', title: 'Kelvin' },
      ]);
      const kelvin = others[0] ?? '';
      expect(
        await claimLegacyReaderRows(store.db, { reader: kelvin, legacyReader: legacyReaderKey('\u212Aate2@acme.dev') }),
      ).toBe(1);
      expect((await listThreads(store.db, { reader: kelvin })).threads).toMatchObject([{ id: 'legacy-kelvin' }]);
      expect(
        await claimLegacyReaderRows(store.db, { reader: kate, legacyReader: legacyReaderKey('Kate2@acme.dev') }),
      ).toBe(1);
      expect((await listThreads(store.db, { reader: kate })).threads).toMatchObject([
        { id: 'legacy-kate', title: 'Before subjects' },
      ]);
      // Claimed once: a later account signing in with the address gets nothing of Kate's.
      expect(
        await claimLegacyReaderRows(store.db, { reader: others[1] ?? '', legacyReader: 'email:kate2@acme.dev' }),
      ).toBe(0);
    });

    it('claims the feedback and logged questions with the threads', async () => {
      await store.db.insert(threads).values({ id: 'legacy', reader: 'email:ada@acme.dev' });
      await store.db.execute(
        sql`insert into messages (id, thread_id, parent_id, role, content) values ('q', 'legacy', null, 'user', '[]'), ('a', 'legacy', 'q', 'assistant', '[]')`,
      );
      await store.db.insert(feedback).values({ messageId: 'a', reader: 'email:ada@acme.dev', rating: 'negative' });
      await recordQuestion(store.db, {
        reader: 'email:ada@acme.dev',
        question: 'Q?',
        mode: 'docs-only',
        covered: false,
        confidence: 'none',
        nearestPage: null,
        answerMessageId: 'a',
      });
      await claimLegacyReaderRows(store.db, { reader: kate, legacyReader: legacyReaderKey('ada@acme.dev') });
      expect((await store.db.select().from(feedback)).map((row) => row.reader)).toEqual([kate]);
      expect((await store.db.select().from(questions)).map((row) => row.reader)).toEqual([kate]);
      await deleteThread(store.db, { reader: kate, threadId: 'legacy' });
      expect(await store.db.select().from(questions)).toEqual([]);
    });
  });

  describe.skipIf(backend.skipped)(`migration 0006 on ${backend.name}`, () => {
    it('keeps rows stored before it under their address, as an `email:` key no subject has', async () => {
      const database = await backend.create();
      const store = await openStore({ ...database.options, migrate: false });
      try {
        const folder = path.join(serverDirectory, 'drizzle');
        const files = (await readdir(folder)).filter((name) => name.endsWith('.sql')).sort();
        const run = async (name: string) => {
          const text = await readFile(path.join(folder, name), 'utf8');
          for (const statement of text.split('--> statement-breakpoint')) await store.db.execute(sql.raw(statement));
        };
        for (const name of files.filter((file) => file < '0006')) await run(name);
        await store.db.execute(sql`insert into threads (id, owner_email) values ('t', 'kate2@acme.dev')`);
        await store.db.execute(
          sql`insert into sessions (id_hash, email, email_verified, expires_at) values ('h', 'kate2@acme.dev', true, now() + interval '1 hour')`,
        );
        for (const name of files.filter((file) => file >= '0006')) await run(name);
        expect(await store.db.select({ id: threads.id, reader: threads.reader }).from(threads)).toEqual([
          { id: 't', reader: 'email:kate2@acme.dev' },
        ]);
        // A session from before has no subject: it is ended, its reader signs in again.
        expect(await store.db.select({ idHash: sessions.idHash }).from(sessions)).toEqual([]);
      } finally {
        await store.close();
        await database.drop();
      }
    });
  });
}
