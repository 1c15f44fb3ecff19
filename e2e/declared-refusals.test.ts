import { apiErrorBodySchema } from '@acme/contract';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { sessionCookieFor } from './sign-in';

/**
 * A route that declares the registry's refusals (`4xx` in its response schema) must answer Fastify's own refusals in
 * that shape too: its error handler, not only its handler, must speak it. Otherwise Fastify's
 * `{ statusCode, code, error }` fails the schema and the caller gets a 500 (FST_ERR_FAILED_ERROR_SERIALIZATION), as
 * the gate page's Sign out button once did. A Content-Type that does not parse is refused before any handler runs, on
 * every route that reads a body.
 */
type Declared = { method: string; url: string };

const bodilessMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

describe('every route that declares refusals in the registry shape', () => {
  const declared: Declared[] = [];
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    const onRoute = (route: RouteOptions) => {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      if (!response || !('4xx' in response)) return;
      for (const method of [route.method].flat()) declared.push({ method, url: route.url });
    };
    server = await startServer({ LOG_LEVEL: 'silent' }, { onRoute });
    cookie = await sessionCookieFor(server.baseUrl, 'declared@acme.dev');
  });
  afterAll(() => server?.close());

  it('answers a body it cannot read with a 4xx in that shape, never a 500', async () => {
    const withBodies = declared.filter(({ method }) => !bodilessMethods.has(method));
    // Sign-out, threads, messages, feedback, tokens, the search's opened results, askAi.
    expect(withBodies.map(({ method, url }) => `${method} ${url}`)).toContain('POST /auth/logout');
    const wrong: string[] = [];
    for (const { method, url } of withBodies) {
      const path = url.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');
      const response = await fetch(new URL(path, server.baseUrl), {
        method,
        headers: { cookie, origin: server.baseUrl, 'content-type': 'text/' },
        body: 'x',
      });
      const text = await response.text();
      let shaped = false;
      try {
        shaped = apiErrorBodySchema.safeParse(JSON.parse(text)).success;
      } catch {}
      if (response.status < 400 || response.status >= 500 || !shaped) {
        wrong.push(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
