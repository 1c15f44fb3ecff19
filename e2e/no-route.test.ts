import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { tokensApi, withToken } from './tokens-api';

/** Requests no route takes: a method a page or endpoint does not answer, an address in another spelling. */
describe('a request no route takes', () => {
  test.for([
    ['PUT', '/firestore-ttl?secret=abc'],
    ['DELETE', '/'],
    ['PATCH', '/api/search?q=x'],
    ['OPTIONS', '/api/threads'],
    ['PROPFIND', '/docs/'],
    ['POST', '/mcp/'],
    ['POST', '/MCP'],
  ] as const)(
    '%s %s is a 404 in the API shape that repeats nothing of the request',
    async ([method, url], { server, sessionCookie }) => {
      for (const headers of [{}, { cookie: sessionCookie }]) {
        const response = await server.app.inject({ method, url, headers });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({
          error: { code: 'not_found:route', message: 'Nothing at this address takes this request.' },
        });
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
      }
    },
  );

  // A GET under /api/ that no API route takes (an unknown name, a path parameter over the router's 100 characters)
  // would reach the built site's route; the API answers it in its own shape instead of the site's HTML 404 page.
  test.for([
    ['GET', '/api/nope'],
    ['HEAD', '/api/nope/'],
    ['GET', `/api/threads/${'a'.repeat(101)}`],
    ['GET', `/api/messages/${'b'.repeat(101)}/feedback?x=1`],
  ] as const)(
    '%s %s is the API JSON 404 over HTTP for a reader and a token, the gate 401 for a stranger',
    async ([method, url], { server, sessionCookie }) => {
      const { token } = await tokensApi(server.baseUrl, sessionCookie).create(`no-route ${method} ${url.length}`);
      for (const init of [{ headers: { cookie: sessionCookie } }, withToken(token)]) {
        const response = await fetch(`${server.baseUrl}${url}`, { method, ...init });
        expect(response.status, `${method} ${url}`).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        if (method === 'GET') {
          expect(await response.json()).toEqual({
            error: { code: 'not_found:route', message: 'Nothing at this address takes this request.' },
          });
        }
      }
      const stranger = await fetch(`${server.baseUrl}${url}`, { method, headers: { accept: 'application/json' } });
      expect(stranger.status).toBe(401);
    },
  );

  test.for(['/oauth/token', '/oauth/register'])(
    'GET %s is a 405 in OAuth terms, signed in or not',
    async (url, { server, sessionCookie }) => {
      for (const headers of [{}, { cookie: sessionCookie }]) {
        const response = await server.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe('POST');
        expect(response.json()).toEqual({ error: 'invalid_request', error_description: 'This endpoint takes POST.' });
      }
    },
  );
});
