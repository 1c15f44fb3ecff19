import type { AskAiResponse, SearchResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { storedText } from '../server/test-support/messages.js';
import { dataOf, readChunks, sourceUrlsOf, test, withModel } from './ask-fixtures';

/**
 * Every link the server writes to a doc page or section is the address the site itself links (its canonical one):
 * /coding-standard/#naming, with the slash, but /firestore-ttl#…, without. Followed signed in, it is the page at once,
 * never a redirect to the other spelling.
 */

test.override(withModel);

const question = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });

/** The path of a root-relative link, as a browser requests it (no #anchor). */
const pathOf = (url: string) => url.split('#')[0] ?? url;

describe('links to pages whose address ends in a slash', () => {
  test('search results link /coding-standard/#naming, which opens without a redirect', async ({
    server,
    sessionCookie,
  }) => {
    const headers = { cookie: sessionCookie };
    const search = async (query: string) => {
      const response = await server.app.inject({ url: `/api/search?q=${encodeURIComponent(query)}`, headers });
      expect(response.statusCode).toBe(200);
      return (JSON.parse(response.body) as SearchResponse).results.map((result) => result.url);
    };
    const naming = await search('coding standard naming');
    expect(naming).toContain('/coding-standard/#naming');
    expect(naming.some((url) => url.startsWith('/coding-standard#'))).toBe(false);
    const ttl = await search('ttl policy');
    expect(ttl.some((url) => url.startsWith('/firestore-ttl#'))).toBe(true);

    for (const url of [...naming, ...ttl]) {
      const page = await server.app.inject({ url: pathOf(url), headers });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers.location, url).toBeUndefined();
    }
  });

  test("a model's link in the other spelling reaches the reader as the page's address", async ({
    server,
    sessionCookie,
    copilot,
    fakeModel,
  }) => {
    fakeModel.behave({
      reply: ['Name things as [the naming rules](/coding-standard#naming', ') say, and see [TTL](/firestore-ttl/).'],
    });
    // The reader's page in the spelling the site redirects is still their page.
    const { threadId, response } = await copilot.askInNewThread('How should I name a function?', {
      page: '/coding-standard',
    });
    expect(response.status).toBe(200);
    const chunks = await readChunks(response);
    expect(dataOf(chunks, 'link')).toEqual([
      { url: '/coding-standard#naming', href: '/coding-standard/#naming' },
      { url: '/firestore-ttl/', href: '/firestore-ttl' },
    ]);
    expect(sourceUrlsOf(chunks)).toEqual(['/coding-standard/#naming', '/firestore-ttl']);
    const [system] = ((fakeModel.received[0]?.body.messages ?? []) as Array<{ content: unknown }>).map((message) =>
      String(message.content),
    );
    expect(system).toContain('The reader is on the page /coding-standard/.');
    expect(system).toMatch(/URL: \/coding-standard\/#/);
    expect(system).not.toMatch(/URL: \/coding-standard#/);

    const stored = (await copilot.thread(threadId)).messages[1];
    expect(storedText(stored)).toBe(
      'Name things as [the naming rules](</coding-standard/#naming>) say, and see [TTL](</firestore-ttl>).',
    );
    for (const url of ['/coding-standard/', '/firestore-ttl']) {
      const page = await server.app.inject({ url, headers: { cookie: sessionCookie } });
      expect(page.statusCode, url).toBe(200);
    }
  });

  test('a docs-only answer and its sources link the pages at their addresses', async ({ copilot, fakeModel }) => {
    // A model failing before its first word: the docs answer alone.
    fakeModel.behave({ status: 500 });
    const response = await copilot.ask({
      messages: [question('What naming conventions does our coding standard use for functions?')],
      page: '/coding-standard',
    });
    const body = (await response.json()) as AskAiResponse;
    expect(body.mode).toBe('docs-only');
    const linked = [...body.data.matchAll(/\]\(<?(\/[^)>\s]*)/g)].map((match) => match[1] ?? '');
    expect(linked.some((url) => url.startsWith('/coding-standard/#'))).toBe(true);
    expect(linked.some((url) => url.startsWith('/coding-standard#'))).toBe(false);
    expect(body.sources.map((source) => source.url)).toContain(
      linked.find((url) => url.startsWith('/coding-standard/')),
    );
  });

  test('an overview of the page asked from /coding-standard links its sections as /coding-standard/#…', async ({
    copilot,
    fakeModel,
  }) => {
    fakeModel.behave({ status: 500 });
    const response = await copilot.ask({ messages: [question('Summarize this page')], page: '/coding-standard' });
    const body = (await response.json()) as AskAiResponse;
    const linked = [...body.data.matchAll(/\]\(<?(\/[^)>\s]*)/g)].map((match) => match[1] ?? '');
    expect(linked).toContain('/coding-standard/#naming');
    for (const url of linked) expect(url).toMatch(/^\/coding-standard\/(#[\w-]+)?$/);
  });
});
