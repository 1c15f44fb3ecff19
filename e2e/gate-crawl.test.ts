import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { builtMarkdownOrigin } from '@acme/contract';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { listSiteFiles, siteBuildDirectory } from './harness';

test.override({ readerEmail: 'crawler@acme.dev' });

describe('every file of the built site', () => {
  const files = [...listSiteFiles(siteBuildDirectory)];

  test('is a real crawl of the build (HTML, chunks, 404 page, images)', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const expected of ['/404.html', '/search/index.html', '/img/logo.svg']) {
      expect(files).toContain(expected);
    }
    expect(files.some((file) => /^\/assets\/js\/.+\.js$/.test(file))).toBe(true);
    expect(files.some((file) => /^\/assets\/css\/.+\.css$/.test(file))).toBe(true);
  });

  test('gives an unauthenticated GET and HEAD no byte of any file', async ({ server }) => {
    for (const file of files) {
      const url = encodeURI(file);
      const get = await server.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(get.statusCode, file).toBe(401);
      // A script asking for a page's Markdown with no credential is told to send a token; anything else to sign in.
      const markdown = /(\.md|\/llms(-full)?\.txt)$/.test(file);
      const code = markdown ? 'unauthorized:token_missing' : 'unauthorized:session';
      expect(JSON.parse(get.body).error.code, file).toBe(code);
      const head = await server.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, file).toBe(401);
      expect(head.body, file).toBe('');
    }
  });

  test('serves every file, byte for byte, to an allowed session', async ({ server, sessionCookie }) => {
    for (const file of files) {
      // Pages are asked for by their route (their .html names redirect there); the 404 page answers unknown paths.
      const url = file === '/404.html' ? '/no-such-page' : encodeURI(file.replace(/\/index\.html$/, '/'));
      const headers = { cookie: sessionCookie, 'accept-encoding': 'gzip' };
      let response = await server.app.inject({ method: 'GET', url, headers });
      // A page whose one address has no trailing slash ("/firestore-ttl") redirects there, in one hop.
      if (response.statusCode === 301 && file.endsWith('/index.html')) {
        response = await server.app.inject({ method: 'GET', url: String(response.headers.location), headers });
      }
      // The maintainers' page is the 404 page to this reader, who is none; the prepared search is never served.
      const servedAs = file.startsWith('/insights/') || file === '/prepared-search.bin' ? '/404.html' : file;
      expect(response.statusCode, file).toBe(servedAs === '/404.html' ? 404 : 200);
      const body =
        response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
      const built = readFileSync(path.join(siteBuildDirectory, servedAs));
      // The Markdown pages and llms.txt link to the server's own origin, written over the build's stand-in.
      const expected = /(\.md|\/llms(-full)?\.txt)$/.test(servedAs)
        ? Buffer.from(built.toString('utf8').replaceAll(builtMarkdownOrigin, server.config.publicUrl.origin))
        : built;
      expect(body.equals(expected), file).toBe(true);
    }
  });
});
