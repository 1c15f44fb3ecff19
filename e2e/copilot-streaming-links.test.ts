import { expect } from 'vitest';
import { test } from './fixtures';

/**
 * A link still being written is held back while an answer streams: the reader never sees raw markdown such as
 * `[Firestore TT` flash before it becomes a link (a reader review saw `[BigQuer`).
 */
test.override({ withModel: true });

test('shows no half-written link while the answer streams, and the whole link once it is written', async ({
  reader: { site, copilot },
  fakeModel: fake,
}) => {
  // The link arrives in pieces, each a quarter of a second after the last.
  fake.behave({
    reply: [
      'Expired documents go within a day; see ',
      '[Firestore',
      ' TTL › Costs](/firestore-',
      'ttl#costs)',
      ' too.',
    ],
    chunkDelayMs: 250,
  });
  await site.open('/');
  await copilot.open();
  await copilot.ask('When are expired documents deleted?');
  const text = copilot.answerText(copilot.lastAnswer);
  const seen = await copilot.textsWhileStreaming('too.');
  expect(seen.some((shown) => shown.includes('within a day'))).toBe(true);
  expect(seen.filter((shown) => shown.includes('['))).toEqual([]);
  await expect.poll(() => text.locator('a', { hasText: 'Firestore TTL › Costs' }).count()).toBe(1);
}, 60_000);
