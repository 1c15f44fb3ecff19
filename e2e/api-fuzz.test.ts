import { expect } from 'vitest';
import { test } from './fixtures';

/**
 * Bad input never gives a 500: 2,400 requests with random bodies, ids and paths against every API route of the whole
 * server (gate, Dev Copilot, search), signed in and signed out. A fixed seed makes a failure repeatable.
 */
test.override({
  serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '100000', SEARCH_REQUESTS_PER_MINUTE: '100000' },
  readerEmail: 'fuzzer@acme.dev',
});

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

test('answers 2,400 malformed API requests without a single 5xx, and still serves afterwards', async ({
  server,
  sessionCookie,
}) => {
  const random = randomFrom(20261124);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  /** A path segment; a lone surrogate cannot be percent-encoded, so it goes as the bytes it would have been. */
  const segment = (value: unknown) => {
    try {
      return encodeURIComponent(String(value));
    } catch {
      return '%ED%A0%80';
    }
  };
  const asked = await server.app.inject({
    method: 'POST',
    url: '/api/threads',
    headers: { cookie: sessionCookie, origin: server.baseUrl, 'content-type': 'application/json' },
    payload: '{}',
  });
  const threadId = (asked.json() as { id: string }).id;
  const ids = [threadId, ...weird];
  const routes: Array<() => [string, string]> = [
    () => ['POST', '/api/turns'],
    () => ['POST', '/api/askAi'],
    () => ['POST', '/api/threads'],
    () => ['GET', `/api/threads?status=${segment(pick(weird))}`],
    () => [pick(['GET', 'PATCH', 'DELETE']), `/api/threads/${segment(pick(ids))}`],
    () => ['POST', `/api/threads/${segment(pick(ids))}/stop`],
    () => [pick(['PUT', 'DELETE']), `/api/messages/${segment(pick(ids))}/feedback`],
    () => ['GET', `/api/search?q=${segment(pick(weird))}&limit=${segment(pick(weird))}&ctx=${segment(pick(weird))}`],
    () => ['GET', `/${segment(pick(weird))}/${segment(pick(weird))}`],
  ];
  const fields = [
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
  ];
  const failures: string[] = [];
  for (let request = 0; request < 2400; request += 1) {
    const [method, url] = pick(routes)();
    const body: Record<string, unknown> = {};
    for (const field of fields) if (random() < 0.4) body[field] = pick([...weird, threadId]);
    if (random() < 0.3) Object.assign(body, { threadId, parentId: null, text: pick(['hi', '\u0000', 'a\ud800']) });
    if (random() < 0.2) {
      body.messages = [{ role: pick(['user', 'system', 1]), content: [{ type: 'text', text: pick(weird) }] }];
    }
    if (random() < 0.2) {
      body.attachments = [
        { type: 'image', contentType: pick(['image/png', 'text/html', '']), content: pick(['', 'AAAA', '\u0000']) },
      ];
    }
    const payload = random() < 0.05 ? pick(['{', 'null', '[]', '"x"', '\u0000']) : JSON.stringify(body);
    const withBody = method !== 'GET' && method !== 'DELETE';
    const response = await server.app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(random() < 0.9 ? { cookie: sessionCookie } : {}),
        origin: server.baseUrl,
        ...(withBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(withBody ? { payload } : {}),
    });
    if (response.statusCode >= 500)
      failures.push(`${method} ${url.slice(0, 120)} ${payload.slice(0, 120)} -> ${response.statusCode}`);
  }

  expect(failures).toEqual([]);
  const page = await server.app.inject({ method: 'GET', url: '/faqs/', headers: { cookie: sessionCookie } });
  expect(page.statusCode).toBe(200);
});
