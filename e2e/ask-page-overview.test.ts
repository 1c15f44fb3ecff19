import type { AskAiResponse } from '@acme/contract';
import type { UIMessageChunk } from 'ai';
import { describe, expect } from 'vitest';
import { readChunks, sourceUrlsOf, test, textOf } from './ask-fixtures';

/**
 * "Ask about this page" without a model: the widget's question about the page on screen is answered with what the
 * page is for and its sections, each linked to its anchor, not with two excerpts the search ranked first.
 */

/** The question the widget's "Ask about this page" suggestion sends (site/src/components/Copilot/useSuggestions.ts). */
const aboutThePage = 'What are the key points of the page "Firestore TTL"?';
const ttlPurpose =
  'How Acme uses Firestore TTL policies to expire sessions, webhook dedupe records and job logs, with the gcloud commands, costs, limits and checks.';

/** The h2 and h3 anchors of a served page, in its order. */
const headingAnchorsOf = (html: string) =>
  [...html.matchAll(/<h[23]\b[^>]*\bid=["']?([^"' >]+)/g)].map((match) => match[1] ?? '');

describe('"Ask about this page"', () => {
  test("answers with the page's purpose, then its sections linked to anchors that exist on the page", async ({
    copilot,
    server,
    sessionCookie,
  }) => {
    const response = await copilot.ask({
      messages: [{ role: 'user', content: [{ type: 'text', text: aboutThePage }], attachments: [] }],
      page: '/firestore-ttl',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as AskAiResponse;
    expect(body).toMatchObject({ mode: 'docs-only', covered: true, closest: [] });
    expect(body.sources).toEqual([{ title: 'Firestore TTL', url: '/firestore-ttl' }]);
    const [purposeLine, ...rest] = body.data.split('\n');
    expect(purposeLine).toBe(`**[Firestore TTL](/firestore-ttl)**: ${ttlPurpose}`);
    expect(rest.filter(Boolean)[0]).toBe('Its main sections:');

    const linkedAnchors = [...body.data.matchAll(/\]\(\/firestore-ttl#([\w-]+)\)/g)].map((match) => match[1]);
    const page = await fetch(`${server.baseUrl}/firestore-ttl`, { headers: { cookie: sessionCookie } });
    expect(page.status).toBe(200);
    // Every h2 and h3 of the page, in its order, and each link leads to one of them.
    expect(linkedAnchors).toEqual(headingAnchorsOf(await page.text()));
    expect(linkedAnchors.length).toBeGreaterThan(3);
    expect(body.data).toContain('- [How TTL works](/firestore-ttl#how-ttl-works)');
    expect(body.data).toContain('  - [The expiry field](/firestore-ttl#the-expiry-field)');
  });

  test('streams the same overview in a turn, with the page as its source', async ({ copilot }) => {
    const { response } = await copilot.askInNewThread('Summarize this page', { page: '/firestore-ttl' });
    const chunks: UIMessageChunk[] = await readChunks(response);
    expect(textOf(chunks)).toMatch(/^\*\*\[Firestore TTL\]\(\/firestore-ttl\)\*\*: How Acme uses Firestore TTL/);
    expect(sourceUrlsOf(chunks)).toEqual(['/firestore-ttl']);
  });

  test('still answers a question about something on the page from its sections', async ({ copilot }) => {
    const response = await copilot.ask({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'What does this page say about TTL costs?' }],
          attachments: [],
        },
      ],
      page: '/firestore-ttl',
    });
    const body = (await response.json()) as AskAiResponse;
    expect(body.data).not.toContain('Its main sections:');
    expect(body.data).toContain('](/firestore-ttl');
    expect(body.sources[0]?.url).toMatch(/^\/firestore-ttl\b/);
  });
});
