import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AskAiResponse } from '@acme/contract';
import { describe, expect } from 'vitest';
import { findReportItems } from '../server/src/store/questions.js';
import { questions } from '../server/src/store/schema.js';
import { type CopilotClient, copilotClient, test } from './ask-fixtures';
import { sessionCookieFor } from './sign-in';
import { readerKeyOfEmail } from './threads-api';

/** POST /api/askAi without a model: the stateless JSON call scripts use, answered from the docs alone. */

const question = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });

const fixtureBase64 = (name: string) =>
  readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test-support/fixtures', name),
  ).toString('base64');

const answer = async (copilot: CopilotClient, text: string) =>
  (await (await copilot.ask({ messages: [question(text)] })).json()) as AskAiResponse;

const pagesOf = (sources: AskAiResponse['sources']) =>
  sources.map((source) => decodeURI(source.url.split('#')[0] ?? ''));

describe('POST /api/askAi, the contract of spec section 7', () => {
  test('answers the seed-shaped request with markdown in `data` and the sections it used', async ({ copilot }) => {
    const response = await copilot.ask({
      messages: [question('How do I create a TTL policy for expireAt in Firestore?')],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as AskAiResponse;
    expect(body.data).toContain('](/firestore-ttl#');
    expect(body.sources.map((source) => source.url.split('#')[0])).toContain('/firestore-ttl');
    expect(body.mode).toBe('docs-only');
  });

  test('answers with JSON even when asked for an event stream: streaming is for turns', async ({ copilot }) => {
    const response = await copilot.ask(
      { messages: [question('How do I register a GitLab runner?')] },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as AskAiResponse).data).toContain('](/setting-up-gitlab-runner');
  });

  test('says honestly when the docs do not cover a question', async ({ copilot }) => {
    const response = await copilot.ask({ messages: [question('What is the recipe for tiramisu with mascarpone?')] });
    const body = (await response.json()) as AskAiResponse;
    expect(body.data).toContain('The handbook does not seem to cover this.');
  });
});

describe('screenshots and the questions log', () => {
  test('reads an error screenshot and answers with the page about that error', async ({ copilot }) => {
    const response = await copilot.ask({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'What is this?' }],
          attachments: [
            { type: 'image', contentType: 'image/png', content: fixtureBase64('npm-e401-terminal@2x.png') },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as AskAiResponse;
    expect(body.data).toMatch(/^From your screenshot I read: "[^"\n]*npm ERR! code E401[^"\n]*"\./);
    expect(body.sources.map((source) => source.url.split('#')[0])).toContain('/getting-started-acme-cli/');
  });

  test('says so when a screenshot has no text it can read, and answers the typed question', async ({ copilot }) => {
    const response = await copilot.ask({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'How do I register a GitLab runner?' }],
          attachments: [{ type: 'image', contentType: 'image/png', content: fixtureBase64('blank-terminal.png') }],
        },
      ],
    });
    const body = (await response.json()) as AskAiResponse;
    expect(body.data).toMatch(/^I could not read any text in your screenshot/);
    expect(body.sources.map((source) => source.url.split('#')[0])).toContain('/setting-up-gitlab-runner');
  });

  test('records answered questions for the maintainers under ids of its own, covered or not', async ({ server }) => {
    const email = 'logged@acme.dev';
    const logged = copilotClient(server.baseUrl, await sessionCookieFor(server.baseUrl, email));
    for (const text of ['How do I register a GitLab runner?', 'What is the recipe for tiramisu with mascarpone?']) {
      expect((await logged.ask({ messages: [question(text)] })).status).toBe(200);
    }
    const reader = await readerKeyOfEmail(server.store.db, email);
    const rows = (await server.store.db.select().from(questions)).filter((row) => row.reader === reader);
    expect(rows.map((row) => [row.question, row.covered, row.mode])).toEqual(
      expect.arrayContaining([
        ['How do I register a GitLab runner?', true, 'docs-only'],
        ['What is the recipe for tiramisu with mascarpone?', false, 'docs-only'],
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.answerMessageId)).size).toBe(2);
    // The report lists what needs attention: the uncovered question, not the covered one.
    const listed = new Set(
      (await findReportItems(server.store.db, { limit: 1000 })).map((item) => item.answerMessageId),
    );
    expect(rows.filter((row) => listed.has(row.answerMessageId)).map((row) => row.question)).toEqual([
      'What is the recipe for tiramisu with mascarpone?',
    ]);
  });
});

describe('docs-only answers to questions as people ask them', () => {
  test('flags a covered answer and cites the exact section it quotes', async ({ copilot }) => {
    const body = await answer(copilot, 'How do I create a TTL policy for expireAt in Firestore?');
    expect(body.covered).toBe(true);
    expect(body.closest).toEqual([]);
    const [first] = body.sources;
    expect(first?.url).toMatch(/^\/firestore-ttl#[\w-]+$/);
    expect(body.data).toContain(`](${first?.url})`);
  });

  test('says how sure it is: answered, only the closest the handbook comes, or not covered', async ({ copilot }) => {
    const sure = await answer(copilot, 'How do I create a TTL policy for expireAt in Firestore?');
    expect(sure).toMatchObject({ confidence: 'answered', covered: true, closest: [] });
    expect(sure.data).toMatch(/^\*\*\[Firestore TTL › /);

    // The TTL pages come near, but the handbook never names DynamoDB.
    const close = await answer(copilot, 'How do I set a TTL policy on a DynamoDB table?');
    expect(close).toMatchObject({ confidence: 'closest', covered: false, closest: [] });
    expect(close.sources.length).toBeGreaterThan(0);
    const [quoted] = close.sources;
    expect(quoted?.url).toMatch(/^\/firestore-ttl#[\w-]+$/);
    // Opens by saying it may not answer, with the closest section linked: never a bold link that reads as the answer.
    expect(
      close.data.startsWith(
        `The handbook may not answer this exactly; the closest it comes is [${quoted?.title}](${quoted?.url}):`,
      ),
    ).toBe(true);
    expect(close.data).not.toContain('**[');
    expect(close.data).toContain('#dev-help');

    const unsure = await answer(
      copilot,
      'How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?',
    );
    expect(unsure).toMatchObject({ confidence: 'none', covered: false, sources: [] });
    expect(unsure.closest.length).toBeGreaterThan(0);
  });

  test('declines an out-of-scope question: no sources, the closest pages apart', async ({ copilot }) => {
    const body = await answer(
      copilot,
      'How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?',
    );
    expect(body.covered).toBe(false);
    expect(body.sources).toEqual([]);
    expect(body.data).toContain('The handbook does not seem to cover this.');
    expect(body.closest.length).toBeGreaterThan(0);
    for (const page of body.closest) {
      expect(page.url.includes('#')).toBe(false);
      expect(body.data).toContain(`(${page.url})`);
    }
  });

  test('finds the section through a typo', async ({ copilot }) => {
    const body = await answer(copilot, 'how do i registr a new gitlab runer?');
    expect(body.covered).toBe(true);
    expect(pagesOf(body.sources)).toContain('/setting-up-gitlab-runner');
  });

  test('finds the section through chat filler', async ({ copilot }) => {
    const body = await answer(
      copilot,
      'hey quick q, nobody on my team remembers and I need it tmrw morning: how do we create the TTL policy on expireAt?',
    );
    expect(body.covered).toBe(true);
    expect(pagesOf(body.sources)).toContain('/firestore-ttl');
  });

  test('quotes the command the question is about, not just a nearby sentence', async ({ copilot }) => {
    const body = await answer(copilot, 'what gcloud command creates the TTL policy?');
    expect(body.data).toMatch(/gcloud firestore fields ttls update/);
  });

  test.for([
    ['words an object inherits', 'Do our classes need two constructors, or is toString enough? __proto__'],
    ['one enormous pasted word', `deploy ${'a'.repeat(30_000)}`],
  ] as const)('answers %s with 200, never a 500', async ([, text], { copilot }) => {
    const response = await copilot.ask({ messages: [question(text)] });
    expect(response.status).toBe(200);
    expect(((await response.json()) as AskAiResponse).data.length).toBeGreaterThan(0);
  });

  test('searches with the text of a screenshot as well as what the reader typed', async ({ copilot }) => {
    const response = await copilot.ask({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'my install keeps failing on my laptop, what does this error mean?' }],
          attachments: [
            { type: 'image', contentType: 'image/png', content: fixtureBase64('npm-e401-terminal@2x.png') },
          ],
        },
      ],
    });
    const body = (await response.json()) as AskAiResponse;
    // Covered or not, the page the screenshot's error is about ranks first: the search read the screenshot.
    expect(pagesOf([...body.sources, ...body.closest])[0]).toBe('/getting-started-acme-cli/');
  });
});

describe('who may ask', () => {
  test('refuses without a session (401), for a not-allowed account (403), from a foreign origin (403)', async ({
    copilot,
    server,
  }) => {
    const body = { messages: [question('hello there')] };
    const notAllowed = await sessionCookieFor(server.baseUrl, 'asker@gmail.com');
    expect((await copilot.ask(body, { headers: { cookie: '' } })).status).toBe(401);
    expect((await copilot.ask(body, { headers: { cookie: notAllowed } })).status).toBe(403);
    const foreign = await copilot.ask(body, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('forbidden:origin');
  });
});
