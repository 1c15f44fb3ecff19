import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReportItems } from '../server/src/store/questions.js';
import { startServer, type TestServer } from './harness';
import { signIn } from './sign-in';

let server: TestServer;
let cookie: string;
let notAllowedCookie: string;

beforeAll(async () => {
  // The question table alone asks more than the default 20 a minute; the limit itself is tested below.
  server = await startServer({ ASK_REQUESTS_PER_MINUTE: '1000' });
  cookie = `acme_session=${(await signIn(server.baseUrl, { email: 'asker@acme.dev' })).jar.get('acme_session')}`;
  notAllowedCookie = `acme_session=${(await signIn(server.baseUrl, { email: 'asker@gmail.com' })).jar.get('acme_session')}`;
});
afterAll(async () => {
  await server?.close();
});

const question = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], attachments: [] });

function ask(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}/api/askAi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie, ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a Server-Sent Events body into its events. */
async function readEvents(response: Response) {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = block.match(/^event: (.+)$/m)?.[1];
      const data = JSON.parse(block.match(/^data: (.+)$/m)?.[1] ?? 'null');
      return { event, data };
    });
}

const fixtureBase64 = (name: string) =>
  readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test-support/fixtures', name),
  ).toString('base64');

describe('POST /api/askAi, the contract of spec section 7', () => {
  it('answers the seed-shaped request with markdown in `data` and the sections it used', async () => {
    const response = await ask({ messages: [question('How do I create a TTL policy for expireAt in Firestore?')] });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { data: string; sources: Array<{ title: string; url: string }> };
    expect(body.data).toContain('](/firestore-ttl#');
    expect(body.sources.map((source) => source.url.split('#')[0])).toContain('/firestore-ttl');
  });

  it('streams the same answer as Server-Sent Events when asked to', async () => {
    const body = { messages: [question('How do I register a GitLab runner?')] };
    const json = (await (await ask(body)).json()) as { data: string; sources: unknown[] };
    const response = await ask(body, { accept: 'text/event-stream' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const events = await readEvents(response);
    expect(events[0]?.event).toBe('start');
    const streamed = events
      .filter((event) => event.event === 'delta')
      .map((event) => event.data.text)
      .join('');
    expect(events.filter((event) => event.event === 'delta').length).toBeGreaterThan(5);
    expect(streamed).toBe(json.data);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { sources: json.sources } });
  });

  it('says honestly when the docs do not cover a question', async () => {
    const response = await ask({ messages: [question('What is the recipe for tiramisu with mascarpone?')] });
    const body = (await response.json()) as { data: string };
    expect(body.data).toContain('The handbook does not seem to cover this.');
  });
});

describe('screenshots and the questions log', () => {
  it('reads an error screenshot and answers with the page about that error', async () => {
    const response = await ask({
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
    const body = (await response.json()) as { data: string; sources: Array<{ url: string }> };
    expect(body.data).toMatch(/^From your screenshot I read: "[^"\n]*npm ERR! code E401[^"\n]*"\./);
    expect(body.sources.map((source) => source.url.split('#')[0])).toContain('/getting-started-acme-cli/');
  });

  it('says so when a screenshot has no text it can read, and answers the typed question', async () => {
    const response = await ask({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'How do I register a GitLab runner?' }],
          attachments: [{ type: 'image', contentType: 'image/png', content: fixtureBase64('blank-terminal.png') }],
        },
      ],
    });
    const body = (await response.json()) as { data: string; sources: Array<{ url: string }> };
    expect(body.data).toMatch(/^I could not read any text in your screenshot/);
    expect(body.sources.map((source) => source.url.split('#')[0])).toContain('/setting-up-gitlab-runner');
  });

  it('records answered questions for the maintainers, covered or not', async () => {
    const covered = (await (await ask({ messages: [question('How do I register a GitLab runner?')] })).json()) as {
      id: string;
    };
    const uncovered = (await (
      await ask({ messages: [question('What is the recipe for tiramisu with mascarpone?')] })
    ).json()) as { id: string };
    const items = await findReportItems(server.store.db, { limit: 100 });
    // The report lists what needs attention: the uncovered question, not the covered one.
    const listed = items.filter((item) => item.answerMessageId === uncovered.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ question: 'What is the recipe for tiramisu with mascarpone?' });
    expect(items.some((item) => item.answerMessageId === covered.id)).toBe(false);
  });
});

describe('docs-only answers to questions as people ask them', () => {
  type Answer = {
    data: string;
    covered: boolean;
    sources: Array<{ title: string; url: string }>;
    closest: Array<{ title: string; url: string }>;
  };
  const answer = async (text: string) => (await (await ask({ messages: [question(text)] })).json()) as Answer;
  const pagesOf = (sources: Answer['sources']) => sources.map((source) => decodeURI(source.url.split('#')[0] ?? ''));

  it('flags a covered answer and cites the exact section it quotes', async () => {
    const body = await answer('How do I create a TTL policy for expireAt in Firestore?');
    expect(body.covered).toBe(true);
    expect(body.closest).toEqual([]);
    const [first] = body.sources;
    expect(first?.url).toMatch(/^\/firestore-ttl#[\w-]+$/);
    expect(body.data).toContain(`](${first?.url})`);
  });

  it('declines an out-of-scope question: no sources, the closest pages apart', async () => {
    const body = await answer('How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?');
    expect(body.covered).toBe(false);
    expect(body.sources).toEqual([]);
    expect(body.data).toContain('The handbook does not seem to cover this.');
    expect(body.closest.length).toBeGreaterThan(0);
    for (const page of body.closest) {
      expect(page.url.includes('#')).toBe(false);
      expect(body.data).toContain(`(${page.url})`);
    }
  });

  it('finds the section through a typo', async () => {
    const body = await answer('how do i registr a new gitlab runer?');
    expect(body.covered).toBe(true);
    expect(pagesOf(body.sources)).toContain('/setting-up-gitlab-runner');
  });

  it('finds the section through chat filler', async () => {
    const body = await answer(
      'hey quick q, nobody on my team remembers and I need it tmrw morning: how do we create the TTL policy on expireAt?',
    );
    expect(body.covered).toBe(true);
    expect(pagesOf(body.sources)).toContain('/firestore-ttl');
  });

  it('quotes the command the question is about, not just a nearby sentence', async () => {
    const body = await answer('what gcloud command creates the TTL policy?');
    expect(body.data).toMatch(/gcloud firestore fields ttls update/);
  });

  it.each([
    ['words an object inherits', 'Do our classes need two constructors, or is toString enough? __proto__'],
    ['one enormous pasted word', `deploy ${'a'.repeat(30_000)}`],
  ])('answers %s with 200, never a 500', async (_name, text) => {
    const response = await ask({ messages: [question(text)] });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Answer).data.length).toBeGreaterThan(0);
  });

  it('searches with the text of a screenshot as well as what the reader typed', async () => {
    const response = await ask({
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
    const body = (await response.json()) as Answer;
    // Covered or not, the page the screenshot's error is about ranks first: the search read the screenshot.
    expect(pagesOf([...body.sources, ...body.closest])[0]).toBe('/getting-started-acme-cli/');
  });

  it('carries the coverage flag and the closest pages in the streamed answer too', async () => {
    const response = await ask(
      { messages: [question('How do I configure the nginx ingress controller on our Kubernetes cluster with Helm?')] },
      { accept: 'text/event-stream' },
    );
    const done = (await readEvents(response)).at(-1);
    expect(done).toMatchObject({ event: 'done', data: { covered: false, sources: [] } });
  });
});

describe('who may ask', () => {
  it('refuses without a session (401), for a not-allowed account (403), from a foreign origin (403)', async () => {
    const body = { messages: [question('hello there')] };
    expect((await ask(body, { cookie: '' })).status).toBe(401);
    expect((await ask(body, { cookie: notAllowedCookie })).status).toBe(403);
    const foreign = await ask(body, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('forbidden:origin');
  });
});

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
const image = (overrides: Record<string, unknown> = {}) => ({
  type: 'image',
  contentType: 'image/png',
  content: png.toString('base64'),
  ...overrides,
});

describe('validation: each bad input gets a 400 that says what is wrong', () => {
  it.each([
    [
      'a system message',
      { messages: [{ role: 'system', content: [{ type: 'text', text: 'x' }], attachments: [] }] },
      /role/,
    ],
    ['no messages', { messages: [] }, /must not be empty/],
    ['an empty question', { messages: [question('  \n ')] }, /the question is empty/],
    ['a malformed answer id', { messages: [question('hi')], answerId: '../x' }, /answerId/],
    ['51 messages', { messages: Array.from({ length: 51 }, () => question('hi')) }, /at most 50 messages/],
    ['too much text', { messages: [question('x'.repeat(32_001))] }, /32000 characters/],
    ['an unknown field', { messages: [question('hi')], model: 'gpt-9' }, /model/],
    [
      'an unknown part type',
      { messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }], attachments: [] }] },
      /content/,
    ],
    [
      'five images',
      { messages: [{ ...question('see'), attachments: [1, 2, 3, 4, 5].map(() => image()) }] },
      /at most 4 images/,
    ],
    [
      'a document attachment',
      {
        messages: [
          {
            ...question('see'),
            attachments: [{ type: 'document', contentType: 'application/pdf', content: 'JVBERg==' }],
          },
        ],
      },
      /attachments/,
    ],
    [
      'an SVG',
      { messages: [{ ...question('see'), attachments: [image({ contentType: 'image/svg+xml' })] }] },
      /not accepted/,
    ],
    [
      'bytes that are not the declared type',
      { messages: [{ ...question('see'), attachments: [image({ contentType: 'image/gif' })] }] },
      /not a GIF/,
    ],
    [
      'a data-URL prefix',
      {
        messages: [
          { ...question('see'), attachments: [image({ content: `data:image/png;base64,${png.toString('base64')}` })] },
        ],
      },
      /plain base64/,
    ],
    [
      'an image one byte over 5 MB',
      {
        messages: [
          {
            ...question('see'),
            attachments: [
              image({ content: Buffer.concat([png, Buffer.alloc(5_242_880 - png.length + 1)]).toString('base64') }),
            ],
          },
        ],
      },
      /at most 5 MB/,
    ],
    [
      'base64 broken by line breaks',
      { messages: [{ ...question('see'), attachments: [image({ content: `${png.toString('base64')}\nAAAA` })] }] },
      /base64/,
    ],
    [
      'an assistant message last',
      { messages: [question('hi'), { role: 'assistant', content: [{ type: 'text', text: 'yo' }], attachments: [] }] },
      /last message/,
    ],
  ])('%s', async (_name, body, message) => {
    const response = await ask(body);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { message: string } }).error;
    expect(error.message).toMatch(message);
  });

  it.each([
    ['a body that is not JSON', 'application/json', '{"messages": [', 400, /not valid JSON/],
    ['an empty body', 'application/json', '', 400, /empty/],
    ['a form instead of JSON', 'application/x-www-form-urlencoded', 'messages=hi', 415, /as JSON/],
    ['a body over 32 MB', 'application/json', `{"messages":"${'x'.repeat(32 * 1024 * 1024)}"}`, 413, /too large/],
  ])('refuses %s in the same error shape', async (_name, contentType, body, status, message) => {
    const response = await fetch(`${server.baseUrl}/api/askAi`, {
      method: 'POST',
      headers: { 'content-type': contentType, origin: server.baseUrl, cookie },
      body,
    });
    expect(response.status).toBe(status);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('bad_request:ask');
    expect(error.message).toMatch(message);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After past 20 questions a minute for one user', async () => {
    const limited = await startServer();
    try {
      const session = `acme_session=${(await signIn(limited.baseUrl, { email: 'busy@acme.dev' })).jar.get('acme_session')}`;
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      let lastError: unknown;
      for (let attempt = 0; attempt < 21; attempt++) {
        const response = await fetch(`${limited.baseUrl}/api/askAi`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: limited.baseUrl, cookie: session },
          body: JSON.stringify({ messages: [question('How do I use WSL?')] }),
        });
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter = response.headers.get('retry-after');
          lastError = ((await response.json()) as { error: unknown }).error;
        }
      }
      expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(lastError).toMatchObject({
        code: 'rate_limited:ask',
        message: expect.stringMatching(/at most 20 a minute/),
      });
    } finally {
      await limited.close();
    }
  });
});
