import fc from 'fast-check';
import { expect } from 'vitest';
import { test } from './fixtures';

/**
 * Bad input never gives a 500: 2,400 requests with random bodies, ids and paths against every API route of the whole
 * server (gate, Dev Copilot, search), signed in and signed out. fast-check draws them from a fixed seed, so a failure repeats, and shrinks a failing request to its simplest form.
 */
test.override({
  serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '100000', SEARCH_REQUESTS_PER_MINUTE: '100000' },
  readerEmail: 'fuzzer@acme.dev',
});

const weird: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  'x',
  '\u0000',
  'a\ud800b',
  '\udc00',
  'é'.repeat(3000),
  [],
  {},
  [null],
  { a: 1 },
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00',
  '%',
  '%E0%A4%A',
  'ids/with/slash',
  '<script>',
  'x'.repeat(40_000),
];

type Request = { method: string; url: string; payload: string; signedIn: boolean };

/** A path segment; a lone surrogate cannot be percent-encoded, so it goes as the bytes it would have been. */
const segment = (value: unknown) => {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return '%ED%A0%80';
  }
};

const bodyFields = [
  'threadId',
  'parentId',
  'retryOf',
  'text',
  'attachments',
  'page',
  'title',
  'status',
  'rating',
  'comment',
  'messages',
  'messageId',
];

/** Requests to every API route (and a page path) with ids, queries and bodies made of hostile and random values. */
function requests(threadId: string): fc.Arbitrary<Request> {
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...weird, threadId) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
  const route = fc.oneof(
    fc.constantFrom(['POST', '/api/turns'], ['POST', '/api/askAi'], ['POST', '/api/threads']),
    value.map((status) => ['GET', `/api/threads?status=${segment(status)}`]),
    fc
      .tuple(fc.constantFrom('GET', 'PATCH', 'DELETE'), value)
      .map(([method, id]) => [method, `/api/threads/${segment(id)}`]),
    value.map((id) => ['POST', `/api/threads/${segment(id)}/stop`]),
    value.map((id) => ['PUT', `/api/threads/${segment(id)}/head`]),
    fc
      .tuple(fc.constantFrom('PUT', 'DELETE'), value)
      .map(([method, id]) => [method, `/api/messages/${segment(id)}/feedback`]),
    fc
      .tuple(value, value, value)
      .map(([q, limit, ctx]) => ['GET', `/api/search?q=${segment(q)}&limit=${segment(limit)}&ctx=${segment(ctx)}`]),
    fc.tuple(value, value).map(([first, second]) => ['GET', `/${segment(first)}/${segment(second)}`]),
  );
  const body = fc
    .record({
      fields: fc.record(Object.fromEntries(bodyFields.map((field) => [field, value])), { requiredKeys: [] }),
      turn: fc.option(fc.constantFrom('hi', '\u0000', 'a\ud800'), { nil: undefined }),
      messages: fc.option(
        fc
          .record({ role: fc.constantFrom('user', 'system', 1), text: value })
          .map(({ role, text }) => [{ role, content: [{ type: 'text', text }] }]),
        { nil: undefined },
      ),
      attachments: fc.option(
        fc
          .record({
            contentType: fc.constantFrom('image/png', 'text/html', ''),
            content: fc.constantFrom('', 'AAAA', '\u0000'),
          })
          .map((attachment) => [{ type: 'image', ...attachment }]),
        { nil: undefined },
      ),
    })
    .map(({ fields, turn, messages, attachments }) =>
      JSON.stringify({
        ...fields,
        ...(turn === undefined ? {} : { threadId, parentId: null, text: turn }),
        ...(messages ? { messages } : {}),
        ...(attachments ? { attachments } : {}),
      }),
    );
  const payload = fc.oneof(
    { weight: 19, arbitrary: body },
    { weight: 1, arbitrary: fc.constantFrom('{', 'null', '[]', '"x"', '\u0000') },
  );
  return fc
    .record({ route, payload, signedIn: fc.integer({ min: 0, max: 9 }).map((draw) => draw > 0) })
    .map(({ route: [method = 'GET', url = '/'], payload, signedIn }) => ({ method, url, payload, signedIn }));
}

test('answers 2,400 malformed API requests without a single 5xx, and still serves afterwards', async ({
  server,
  sessionCookie,
}) => {
  const asked = await server.app.inject({
    method: 'POST',
    url: '/api/threads',
    headers: { cookie: sessionCookie, origin: server.baseUrl, 'content-type': 'application/json' },
    payload: '{}',
  });
  const threadId = (asked.json() as { id: string }).id;

  await fc.assert(
    fc.asyncProperty(requests(threadId), async ({ method, url, payload, signedIn }) => {
      const withBody = method !== 'GET' && method !== 'DELETE';
      const response = await server.app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(signedIn ? { cookie: sessionCookie } : {}),
          origin: server.baseUrl,
          ...(withBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(withBody ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url.slice(0, 120)} ${payload.slice(0, 120)}`).toBeLessThan(500);
    }),
    { numRuns: 2400, seed: 20261124 },
  );

  const page = await server.app.inject({ method: 'GET', url: '/faqs/', headers: { cookie: sessionCookie } });
  expect(page.statusCode).toBe(200);
}, 180_000);
