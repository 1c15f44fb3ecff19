import type { ApiErrorBody } from '@acme/contract';
import { expect } from 'vitest';
import { test } from './fixtures';
import { sessionCookieFor } from './sign-in';
import { tokensApi, withToken } from './tokens-api';

/** What a script is told where a token does not get it in: advice it can act on, never "sign in". */
test('tells a script to send a token, that a token only reads, and which pages have no Markdown', async ({
  server,
}) => {
  const bare = await fetch(`${server.baseUrl}/llms.txt`);
  expect(bare.status).toBe(401);
  expect(((await bare.clone().json()) as ApiErrorBody).error.code).toBe('unauthorized:token_missing');
  expect(bare.headers.get('www-authenticate')).toContain('resource_metadata="');
  // A token put in the address is not read, and the script is told why; on /mcp as on a page's Markdown.
  for (const address of ['/faqs.md?token=acme_pat_x', '/mcp?access_token=acme_pat_x']) {
    const inAddress = await fetch(`${server.baseUrl}${address}`);
    const { error } = (await inAddress.json()) as ApiErrorBody;
    expect([inAddress.status, error.code]).toEqual([401, 'unauthorized:token_missing']);
    expect(error.message).toMatch(/^A token in the address .* is not read/);
  }
  expect(((await bare.clone().json()) as ApiErrorBody).error.message).toContain('(/access-tokens)');
  const browser = await fetch(`${server.baseUrl}/faqs.md`, { headers: { accept: 'text/html' } });
  expect([browser.status, browser.headers.get('content-type')]).toEqual([401, 'text/html; charset=utf-8']);

  const cookie = await sessionCookieFor(server.baseUrl, 'script-owner@acme.dev');
  const { token } = await tokensApi(server.baseUrl, cookie).create('script');
  const write = await fetch(
    `${server.baseUrl}/api/threads`,
    withToken(token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
  );
  expect(write.status).toBe(403);
  expect(((await write.json()) as ApiErrorBody).error.code).toBe('forbidden:token_read_only');

  // The pages made for a browser alone, the maintainers' one too (this reader is none: it would be their 404 page).
  for (const page of ['/tags', '/search', '/dev-copilot', '/access-tokens', '/insights', '/insights/']) {
    const answer = await fetch(`${server.baseUrl}${page}`, withToken(token, { redirect: 'manual' }));
    expect([page, answer.status, answer.headers.get('content-type')]).toEqual([
      page,
      404,
      'text/markdown; charset=utf-8',
    ]);
    expect(await answer.text()).toMatch(/^# No Markdown version\n\nThis is a page/);
  }
  // Nothing sent comes back: a made-up address that would redirect is no page, and is not repeated.
  for (const made of ['/no-such-page', '/[Click_me](https:/evil.example/x)/.html']) {
    const text = await (await fetch(`${server.baseUrl}${made}`, withToken(token))).text();
    expect(text).toMatch(/^# Not found/);
    expect(text).not.toContain('evil');
  }
});
