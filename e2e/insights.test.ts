import { readFile } from 'node:fs/promises';
import type { InsightsResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { createThread, deleteThread } from '../server/src/store/conversations.js';
import type { Database } from '../server/src/store/database.js';
import { appendMessage, setFeedback } from '../server/src/store/messages.js';
import { recordQuestion } from '../server/src/store/questions.js';
import { questions, searchQueries } from '../server/src/store/schema.js';
import { axeViolations } from './axe';
import { test } from './fixtures';
import { DocsSite } from './pages/docs-site';
import { signInContext } from './pages/sign-in-pages';
import { sessionCookieFor } from './sign-in';
import { tokensApi, withToken } from './tokens-api';

/**
 * The docs maintainers' insights (`/insights` and `GET /api/insights`): a maintainer sees the figures of what readers
 * asked, rated and searched; every other reader gets the 404 of an unknown page; readers are never named.
 */

const maintainer = 'docs.lead@acme.dev';
const asker = 'ada.asker@acme.dev';
test.override({ serverEnvironment: { MAINTAINERS: maintainer }, readerEmail: maintainer });

const typesense = { url: '/installing-typesense-instance', title: 'Installing a Typesense instance' };
const ttlSource = { title: 'Firestore TTL › Create a policy', url: '/firestore-ttl#create-a-policy' };

async function conversationRatedDown(db: Database, question: string, comment: string) {
  const thread = await createThread(db, { reader: asker });
  const asked = await appendMessage(db, {
    reader: asker,
    threadId: thread.id,
    message: { parentId: null, role: 'user', content: [{ type: 'text', text: question }] },
  });
  const answer = await appendMessage(db, {
    reader: asker,
    threadId: thread.id,
    message: { parentId: asked.id, role: 'assistant', content: [], sources: [ttlSource] },
  });
  await recordQuestion(db, {
    reader: asker,
    question,
    mode: 'docs-only',
    covered: true,
    nearestPage: null,
    sources: [ttlSource],
    answerMessageId: answer.id,
  });
  await setFeedback(db, { reader: asker, messageId: answer.id, rating: 'negative', comment });
  return thread;
}

/** Waits until the search log holds `count` rows: searches are logged beside the answer, not before it. */
async function searchesLogged(db: Database, count: number) {
  for (let attempt = 0; attempt < 250; attempt++) {
    if ((await db.select().from(searchQueries)).length === count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the search log never held ${count} searches`);
}

describe('the insights page', () => {
  test.beforeAll(async ({ server }) => {
    const db = server.store.db;
    for (const [index, question] of [
      'How do I rotate the Typesense admin key?',
      'Typesense admin key rotation schedule',
    ].entries()) {
      await recordQuestion(db, {
        reader: asker,
        question,
        mode: 'docs-only',
        covered: false,
        confidence: 'closest',
        nearestPage: typesense,
        answerMessageId: `unanswered-${index}`,
      });
    }
    await conversationRatedDown(db, 'How long until a TTL deletes a document?', 'It does not say how long');
    const gone = await conversationRatedDown(db, 'A conversation the reader deleted', 'a comment that must vanish');
    await deleteThread(db, { reader: asker, threadId: gone.id });
    await db.insert(questions).values({
      id: 'ten-days-ago',
      reader: asker,
      question: 'An older question',
      mode: 'docs-only',
      covered: true,
      answerMessageId: 'older',
      createdAt: new Date(Date.now() - 10 * 86_400_000),
    });
    // Searches through the real API, by a reader who is no maintainer: one finds nothing, one is opened, one is not.
    const cookie = await sessionCookieFor(server.baseUrl, asker);
    const origin = server.baseUrl;
    for (const q of ['qjxzvkw', 'firestore ttl', 'cloudflare tunnel']) {
      const response = await server.app.inject({ url: `/api/search?q=${encodeURIComponent(q)}`, headers: { cookie } });
      expect(response.statusCode).toBe(200);
      await searchesLogged(db, ['qjxzvkw', 'firestore ttl', 'cloudflare tunnel'].indexOf(q) + 1);
    }
    const opened = await server.app.inject({
      method: 'POST',
      url: '/api/search/opened',
      headers: { cookie, origin, 'content-type': 'application/json' },
      payload: { q: 'firestore ttl' },
    });
    expect(opened.statusCode).toBe(204);
  });

  test('a maintainer sees the figures of the seeded questions, ratings and searches, and no reader named', async ({
    docsSite,
  }) => {
    const response = await docsSite.open('/insights');
    expect(response?.status()).toBe(200);
    const page = docsSite.page;
    await page.getByTestId('insights').waitFor();

    expect(await page.getByTestId('insights-total').textContent()).toBe('4');
    expect(await page.getByTestId('insights-answered').textContent()).toBe('2');
    expect(await page.getByTestId('insights-closest').textContent()).toBe('2');
    expect(await page.getByTestId('insights-none').textContent()).toBe('0');
    await expect.poll(() => page.getByTestId('insights-questions-chart').locator('.ct-bar').count()).toBeGreaterThan(0);
    const topics = page.getByTestId('insights-topic');
    expect(await topics.count()).toBe(1);
    // Both questions are one reader's: a topic counts readers, so repeating a question does not make it bigger.
    expect(await topics.first().textContent()).toContain('(1 reader)');
    expect(await topics.first().getByRole('link', { name: typesense.title }).getAttribute('href')).toBe(typesense.url);
    const ratedDown = page.getByTestId('insights-rated-down-page');
    expect(await ratedDown.count()).toBe(1);
    expect(await ratedDown.first().textContent()).toContain('It does not say how long');
    expect(await ratedDown.first().locator('h3').textContent()).toBe('Firestore TTL (1 reader, 1 rating down)');
    expect(await page.getByTestId('insights-pages').textContent()).toContain('Firestore TTL');
    expect(await page.getByTestId('insights-searches-summary').textContent()).toContain(
      '3 searches: 1 found nothing, 1 found results nobody opened.',
    );
    expect(await page.getByTestId('insights-no-result').textContent()).toContain('qjxzvkw');
    expect(await page.getByTestId('insights-no-result').locator('thead').textContent()).toBe(
      'QueryReadersSearchesLast (UTC)',
    );
    expect(await page.getByTestId('insights-no-click').textContent()).toContain('cloudflare tunnel');
    expect(await page.getByTestId('insights-no-click').textContent()).not.toContain('firestore ttl');

    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain(asker);
    expect(text).not.toContain('A conversation the reader deleted');
    expect(text).not.toContain('a comment that must vanish');

    // The question asked ten days ago is in the default 30 days, not in the last 7.
    await page.getByLabel('7 days').check();
    await expect.poll(() => page.getByTestId('insights-total').textContent(), { timeout: 10_000 }).toBe('3');
    expect(await page.getByTestId('insights-answered').textContent()).toBe('1');
  });

  test('keeps each period on one line on a phone ("7 days", never "7 / days")', async ({ docsSite }) => {
    await docsSite.page.setViewportSize({ width: 390, height: 844 });
    await docsSite.open('/insights');
    const labels = docsSite.page.locator('fieldset label');
    await labels.first().waitFor();
    const lines = await labels.evaluateAll((elements) =>
      elements.map((label) =>
        Math.round(label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight)),
      ),
    );
    expect(lines).toEqual([1, 1, 1]);
  });

  test('exports what the page shows as JSON and CSV', async ({ docsSite }) => {
    await docsSite.open('/insights');
    const page = docsSite.page;
    await page.getByTestId('insights').waitFor();
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const exported = JSON.parse(await readFile((await json.path()) ?? '', 'utf8')) as InsightsResponse;
    expect(exported.questions).toMatchObject({ total: 4, answered: 2, closest: 2, none: 0 });
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lines = (await readFile((await csv.path()) ?? '', 'utf8')).split('\r\n');
    expect(lines[0]).toBe('section,label,url,count,answered,closest,none,detail,readers');
    expect(lines).toContain(`search-no-result,qjxzvkw,,1,,,,${exported.searches.noResult[0]?.lastAt},1`);
    expect(lines).toContain('page-rated-down,Firestore TTL,/firestore-ttl,1,,,,It does not say how long,1');
    expect(lines.find((line) => line.startsWith('unanswered-topic,'))).toMatch(
      /^unanswered-topic,[^,]+,\/installing-typesense-instance,2,,,,.+,1$/,
    );
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`has no axe violations in the ${colorScheme} theme`, async ({ docsSite }) => {
      await docsSite.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await docsSite.open('/insights');
      await docsSite.page.getByTestId('insights').waitFor();
      expect(await docsSite.theme()).toBe(colorScheme);
      await docsSite.page.locator('details summary').first().click();
      expect(await axeViolations(docsSite.page)).toEqual([]);
    });
  }

  test('a reader who is no maintainer gets the 404 of an unknown page, for the page and its API', async ({
    server,
    browser,
  }) => {
    const cookie = await sessionCookieFor(server.baseUrl, asker);
    // Spellings the router leaves to the site's catch-all that decode to the page's address: not even a redirect.
    const encoded = ['/insights%2F', '/insights%2Findex.html', '/%69nsights%2F', '/api%2Finsights?days=7'];
    for (const url of ['/insights', '/insights/', '/api/insights?days=7', ...encoded]) {
      const response = await server.app.inject({ url, headers: { cookie } });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      expect(response.body).not.toContain('Questions a day');
    }
    const unknown = await server.app.inject({ url: '/no-such-page', headers: { cookie } });
    expect((await server.app.inject({ url: '/insights', headers: { cookie } })).body).toBe(unknown.body);

    const context = await browser.newContext();
    await signInContext(context, server.baseUrl, asker);
    const site = new DocsSite(await context.newPage(), server.baseUrl);
    // No link to it either, once the server has said who the reader is.
    const me = site.page.waitForResponse((response) => new URL(response.url()).pathname === '/api/me');
    await site.open('/firestore-ttl');
    expect(await (await me).json()).toMatchObject({ state: 'allowed', maintainer: false });
    expect(await site.page.getByTestId('insights-link').count()).toBe(0);
    expect((await site.open('/insights'))?.status()).toBe(404);
    expect(await site.page.getByTestId('insights').count()).toBe(0);
    await context.close();
  });

  test('refuses a bad period with 400 and a stranger with 401, before any figure is read', async ({
    server,
    sessionCookie,
  }) => {
    const bad = await server.app.inject({ url: '/api/insights?days=365', headers: { cookie: sessionCookie } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'bad_request:insights' } });
    const stranger = await server.app.inject({ url: '/api/insights?days=7' });
    expect(stranger.statusCode).toBe(401);
    const json = await server.app.inject({ url: '/api/insights?days=7', headers: { cookie: sessionCookie } });
    expect(json.statusCode).toBe(200);
    expect(json.body).not.toContain(asker);
  });

  test('leaves searches made with a token (a script, a coding agent) out of the search-box figures', async ({
    server,
    sessionCookie,
  }) => {
    const db = server.store.db;
    const before = (await db.select().from(searchQueries)).length;
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('agent searching');
    const byToken = await fetch(
      `${server.baseUrl}/api/search?q=${encodeURIComponent('kubernetes helm')}`,
      withToken(token),
    );
    expect(byToken.status).toBe(200);
    // A search in the browser afterwards is logged; once it is there, the token's would be too, had it been logged
    // (as its own row, or merged into another reader's typing).
    const browser = await server.app.inject({ url: '/api/search?q=zzyzx', headers: { cookie: sessionCookie } });
    expect(browser.statusCode).toBe(200);
    await searchesLogged(db, before + 1);
    const queries = (await db.select().from(searchQueries)).map((row) => row.query);
    expect(queries).toContain('zzyzx');
    expect(queries.some((query) => query.includes('kubernetes'))).toBe(false);
  });

  test("never opens to a personal access token, not even the maintainer's own", async ({ server, sessionCookie }) => {
    const { token } = await tokensApi(server.baseUrl, sessionCookie).create('insights attempt');
    for (const [url, status] of Object.entries({ '/api/insights?days=7': 401, '/insights': 404, '/insights/': 404 })) {
      const response = await fetch(`${server.baseUrl}${url}`, withToken(token, { redirect: 'manual' }));
      expect({ url, status: response.status }).toEqual({ url, status });
      expect(await response.text()).toMatch(status === 404 ? /^# No Markdown version\n/ : /unauthorized:session/);
    }
  });

  test('the "opened" beacon answers a stranger, a forged session and a bad token with the registry\'s 401, and marks nothing', async ({
    server,
    sessionCookie,
  }) => {
    const db = server.store.db;
    const beacon = (headers: Record<string, string>, payload: unknown = { q: 'cloudflare tunnel' }) =>
      server.app.inject({
        method: 'POST',
        url: '/api/search/opened',
        headers: { origin: server.baseUrl, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(payload),
      });
    for (const [who, headers] of [
      ['no session', {}],
      ['a forged session', { cookie: `${sessionCookie.split('=')[0]}=forged.tag` }],
      ['a bad token', { authorization: 'Bearer acme_pat_not-a-token' }],
    ] as const) {
      const response = await beacon(headers);
      expect({ who, status: response.statusCode }).toEqual({ who, status: 401 });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'unauthorized:session' } });
    }
    const bad = await beacon({ cookie: sessionCookie }, { query: 'cloudflare tunnel' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'bad_request:search' } });
    const logged = await db.select().from(searchQueries);
    expect(logged.filter((row) => row.query === 'cloudflare tunnel').map((row) => row.clicked)).toEqual([false]);
  });
});
