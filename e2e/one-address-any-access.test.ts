import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { test as base } from './fixtures';
import { tokensApi } from './tokens-api';

/**
 * One address means one thing whether a browser's session or a personal token asks (README, "Pages as Markdown" and
 * "By token"): the same page, the same redirect to its one address, the same not-found or refusal. Only what a page is
 * answered with differs, HTML for the browser and the page's Markdown for the token.
 */
const test = base.extend('token', { scope: 'file' }, async ({ server, sessionCookie }) => {
  const created = await tokensApi(server.baseUrl, sessionCookie).create('one address');
  return created.token;
});
test.override({ readerEmail: 'one-address@acme.dev' });

/** GET with the path sent exactly as written (fetch would normalise dot segments), redirects not followed. */
function rawGet(baseUrl: string, rawPath: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<{ status: number; location: string | undefined; type: string | undefined }>((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path: rawPath, method: 'GET', headers }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location,
          type: response.headers['content-type'],
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** `/faqs/` is the page's address (its canonical link), `/firestore-ttl` one without the slash. */
const addresses = [
  '/faqs/',
  '/faqs',
  '/faqs%2F',
  '/faqs%2f',
  '/faqs%2F%2F',
  '/%2Ffaqs/',
  '/faqs//',
  '//faqs/',
  '/faqs/index.html',
  '/faqs/index%2ehtml',
  '/faqs.html',
  '/faqs%2ehtml',
  '/faqs/.html',
  '/faqs/index.html/',
  '/faqs.md',
  '/faqs%2emd',
  '/faqs/index.md',
  '/faqs.md/',
  '/faqs%20',
  '/faqs/%20',
  '/faqs/%2e',
  '/faqs/.',
  '/faqs/..',
  '/faqs/../faqs/',
  '/tags/%2e%2e/faqs/',
  '/%2e%2e/faqs/',
  '/faqs%2F..%2Ffirestore-ttl',
  '/faqs%00',
  '/faqs%5C',
  '/firestore-ttl',
  '/firestore-ttl/',
  '/firestore-ttl/index.html',
  '/',
  '/index.html',
  '/no-such-page',
  '/no-such-page/index.html',
  '//evil.example/',
  '//evil.example/index.html',
  '/%2F%2Fevil.example/',
  '/%2Fevil.example/index.html',
  '/%5Cevil.example/index.html',
];

describe('an address read with a session and with a token', () => {
  test('answers the same status and the same redirect to both', async ({ server, sessionCookie, token }) => {
    const answersTo = async (headers: Record<string, string>) => {
      const answers: string[] = [];
      for (const address of addresses) {
        const { status, location } = await rawGet(server.baseUrl, address, headers);
        answers.push(`${address} ${status}${location === undefined ? '' : ` -> ${location}`}`);
      }
      return answers;
    };
    const session = await answersTo({ cookie: sessionCookie });
    const script = await answersTo({ authorization: `Bearer ${token}` });
    expect(script).toEqual(session);
    // The browser's answers are the spec's: exact routes, .html and /index.html stripped, any other path not found.
    expect(session).toEqual(
      expect.arrayContaining([
        '/faqs%2F 404',
        '/faqs// 404',
        '/faqs/index.html 301 -> /faqs/',
        '/faqs.html 301 -> /faqs/',
        '/faqs.md 200',
        '/faqs/../faqs/ 400',
      ]),
    );
  });

  test('redirects only to a path of our own origin', async ({ server, sessionCookie, token }) => {
    const accesses: Record<string, string>[] = [{ cookie: sessionCookie }, { authorization: `Bearer ${token}` }];
    for (const headers of accesses) {
      for (const address of addresses) {
        const { location } = await rawGet(server.baseUrl, address, headers);
        if (location !== undefined) expect(location, address).toMatch(/^\/(?![/\\])/);
      }
    }
  });

  test('a page is HTML for the session and its Markdown for the token', async ({ server, sessionCookie, token }) => {
    for (const address of ['/faqs/', '/firestore-ttl', '/']) {
      const browser = await rawGet(server.baseUrl, address, { cookie: sessionCookie });
      const script = await rawGet(server.baseUrl, address, { authorization: `Bearer ${token}` });
      expect([address, browser.type, script.type]).toEqual([
        address,
        'text/html; charset=utf-8',
        'text/markdown; charset=utf-8',
      ]);
    }
  });

  test("an agent's read_page reads the page an address names over HTTP, and no other", async ({ server, token }) => {
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'one-address', version: '1.0.0' });
    await client.connect(transport);
    try {
      const read = async (url: string) => {
        const result = (await client.callTool({ name: 'read_page', arguments: { url } })) as CallToolResult;
        const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        return result.isError ? 'no page' : text.split('\n')[0];
      };
      for (const address of ['/faqs/', '/faqs', '/faqs/index.html', '/faqs.html', '/faqs.md']) {
        expect([address, await read(address)]).toEqual([address, '# FAQs']);
      }
      for (const address of ['/faqs//', '/faqs%2F', '/faqs/index.md', '/faqs%20']) {
        expect([address, await read(address)]).toEqual([address, 'no page']);
      }
    } finally {
      await client.close();
    }
  });
});
