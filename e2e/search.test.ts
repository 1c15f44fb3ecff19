import type { SearchResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { signIn } from './sign-in';

/** GET /api/search as the file's signed-in reader, and its results once it answered 200. */
const test = base
  .extend(
    'search',
    async ({ server, sessionCookie }) =>
      (query: string, extra = '') =>
        server.app.inject({
          method: 'GET',
          url: `/api/search?q=${encodeURIComponent(query)}${extra}`,
          headers: { cookie: sessionCookie },
        }),
  )
  .extend('resultsFor', async ({ search }) => async (query: string, extra = '') => {
    const response = await search(query, extra);
    expect(response.statusCode).toBe(200);
    return (JSON.parse(response.body) as SearchResponse).results;
  });
const pagesOf = (results: SearchResponse['results']) =>
  results.map((result) => decodeURI(result.url.split('#')[0] ?? ''));

describe('GET /api/search', () => {
  test('refuses a request without a session', async ({ server }) => {
    const response = await server.app.inject({ method: 'GET', url: '/api/search?q=firestore' });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'unauthorized:session' } });
    expect(response.body).not.toMatch(/Firestore TTL/);
  });

  test('gives at most 8 sections, each with its exact link, path and the matched words marked', async ({
    resultsFor,
  }) => {
    const results = await resultsFor('ttl policy');
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(8);
    const [first] = results;
    expect(first?.url).toMatch(/^\/firestore-ttl(#[\w-]+)?$/);
    expect(first?.pageTitle).toBe('Firestore TTL');
    const marked = [...(first?.title ?? []), ...(first?.snippet ?? [])].filter((piece) => piece.match);
    expect(marked.map((piece) => piece.text.toLowerCase())).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(ttl|polic(y|ies))$/)]),
    );
    expect(response(first?.snippet ?? []).length).toBeLessThanOrEqual(170);
  });

  test('finds the section for a question typed as a sentence, with a typo', async ({ resultsFor }) => {
    expect(pagesOf(await resultsFor('how do i registr a new gitlab runer for our CI?')).slice(0, 3)).toContain(
      '/setting-up-gitlab-runner',
    );
  });

  test('finds the section under chat filler', async ({ resultsFor }) => {
    const results = await resultsFor(
      'hey quick q, nobody on my team remembers and I need it tmrw morning: how do I create a TTL policy on expireAt?',
    );
    expect(pagesOf(results).slice(0, 3)).toContain('/firestore-ttl');
  });

  test("finds a page by a name only its front matter keywords use (the team's alias)", async ({ resultsFor }) => {
    expect(pagesOf(await resultsFor('ngrok'))[0]).toBe('/cloudflare-tunnel');
  });

  test('completes the word being typed', async ({ resultsFor }) => {
    expect(pagesOf(await resultsFor('firestore tt')).slice(0, 3)).toContain('/firestore-ttl');
  });

  test('searches only under the ctx path when one is given', async ({ resultsFor }) => {
    const results = await resultsFor('shopify', '&ctx=/Workshops/');
    expect(results.length).toBeGreaterThan(0);
    for (const page of pagesOf(results)) expect(page.startsWith('/Workshops/')).toBe(true);
  });

  test('refuses a signed-in account that is not allowed', async ({ server }) => {
    const { jar } = await signIn(server.baseUrl, { email: 'someone@gmail.com' });
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/search?q=firestore',
      headers: { cookie: `acme_session=${jar.get('acme_session')}` },
    });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'forbidden:access' } });
  });

  test('keeps ctx to whole folders: /dev is not /dev-flow', async ({ resultsFor }) => {
    expect(await resultsFor('branch review', '&ctx=/dev')).toEqual([]);
    expect((await resultsFor('branch review', '&ctx=/dev-flow/')).length).toBeGreaterThan(0);
  });

  test('names the words no result holds, never a corrected typo, a number, an everyday word or a name of the reader', async ({
    search,
  }) => {
    const missingFor = async (query: string) => (JSON.parse((await search(query)).body) as SearchResponse).missing;
    expect(await missingFor('terraform state')).toEqual(['terraform']);
    expect(await missingFor('deploy kubernetes please')).toEqual(['kubernetes']);
    expect(await missingFor('firestre ttl')).toEqual([]);
    expect(await missingFor('my orderCount is 42 after sync')).toEqual([]);
    expect(await missingFor('firestore ttl')).toEqual([]);
  });

  test('says which typos it read as which words of the handbook, once each, and nothing for words it knows', async ({
    search,
  }) => {
    const correctedFor = async (query: string) => (JSON.parse((await search(query)).body) as SearchResponse).corrected;
    expect(await correctedFor('firestre ttl')).toEqual([{ typed: 'firestre', word: 'firestore' }]);
    expect(await correctedFor('Onbording onbording chekclist')).toEqual([
      { typed: 'onbording', word: 'onboarding' },
      { typed: 'chekclist', word: 'checklist' },
    ]);
    expect(await correctedFor('firestore ttl')).toEqual([]);
    expect(await correctedFor('terraform state')).toEqual([]);
  });

  test('reads a space after the last word as the word finished: a typo corrected, not a beginning of longer words', async ({
    search,
  }) => {
    const typed = async (query: string) => JSON.parse((await search(query)).body) as SearchResponse;
    // Half typed, `deplo` begins `deploy`, `deployed`, `deployment`: nothing to correct.
    expect((await typed('deplo')).corrected).toEqual([]);
    const finished = await typed('deplo ');
    expect(finished.corrected).toEqual([{ typed: 'deplo', word: 'deploy' }]);
    expect(finished.query).toBe('deplo');
    // Several spaces say the same as one.
    const urls = (response: SearchResponse) => response.results.map((result) => result.url);
    expect(urls(await typed('deplo   '))).toEqual(urls(finished));
  });

  test('gives up to 50 results for the results page', async ({ resultsFor }) => {
    expect((await resultsFor('shopify', '&limit=50')).length).toBeGreaterThan(8);
  });

  test.for<[string, string]>([
    ['an empty query', ''],
    ['only spaces', '    '],
    ['a NUL', 'ttl\u0000policy'],
    ['a right-to-left override and emoji', '\u202eyciloP LTT 🔥'],
    ['combining marks', 'fi\u0301restore\u0308 ttl'],
    ['control characters only', '\u0001\u0002\u0003'],
    [
      'words an object inherits (constructor, __proto__, toString)',
      'two constructors __proto__ toString hasOwnProperty',
    ],
    ['one enormous word', `deploy ${'a'.repeat(480)}`],
  ])('answers %s with 200 and a list, never a 500', async ([_name, query], { search }) => {
    const response = await search(query);
    expect(response.statusCode).toBe(200);
    expect(Array.isArray((JSON.parse(response.body) as SearchResponse).results)).toBe(true);
  });

  test('reads bytes that are not UTF-8 as replacement characters, never a 500', async ({ server, sessionCookie }) => {
    const headers = { cookie: sessionCookie };
    const response = await server.app.inject({ method: 'GET', url: '/api/search?q=%ED%A0%80', headers });
    expect(response.statusCode).toBe(200);
  });

  test.for<[string, string]>([
    ['a 10 KB query', `/api/search?q=${'a'.repeat(10_240)}`],
    ['a limit over 50', '/api/search?q=ttl&limit=500'],
    ['a limit that is not a number', '/api/search?q=ttl&limit=many'],
    ['a ctx that is not a path', '/api/search?q=ttl&ctx=https://evil.example/'],
    ['q given twice', '/api/search?q=ttl&q=policy'],
  ])('refuses %s with a 400 in the API error shape', async ([_name, url], { server, sessionCookie }) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { cookie: sessionCookie } });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'bad_request:search' } });
  });
});

const response = (pieces: ReadonlyArray<{ text: string }>) => pieces.map((piece) => piece.text).join('');
