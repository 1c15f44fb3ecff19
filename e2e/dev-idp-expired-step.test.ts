import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { openSignInForm, send, submitSignInForm } from './sign-in';

/**
 * The development sign-in's form at an interaction that is over (Back after signing in or out, a form left open past
 * its ten minutes): a browser gets a page in the sign-in style that says so and starts again; an API client keeps
 * oidc-provider's JSON.
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const json = { accept: 'application/json' };

async function expectExpiredPage(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const page = await response.text();
  expect(page).toContain('<link rel="stylesheet" href="/auth/assets/page.css">');
  expect(page).toContain('This sign-in step has expired');
  expect(page).toMatch(/<a class="button" href="\/auth\/login"[^>]*>Sign in again<\/a>/);
  expect(page).not.toContain('invalid_request');
}

describe('the development sign-in at an interaction that no longer exists', () => {
  test('answers a browser with a page saying the step expired, linking to a new sign-in', async ({ server }) => {
    const url = `${server.baseUrl}/dev-idp/interaction/no-such-interaction`;
    await expectExpiredPage(await fetch(url, { headers: html }));
    const form = { ...html, 'content-type': 'application/x-www-form-urlencoded' };
    await expectExpiredPage(await fetch(url, { method: 'POST', headers: form, body: 'email=a%40acme.dev' }));
  });

  test('answers Back to the form after the sign-in finished with that page too', async ({ server }) => {
    const { jar, form } = await openSignInForm(server.baseUrl);
    expect((await send(jar, form, { headers: html })).status).toBe(200);
    const fields = { email: 'back.button@acme.dev', verified: 'yes', workspace: 'yes', action: 'sign-in' };
    expect((await send(jar, await submitSignInForm(jar, form, fields))).status).toBe(303);
    expect(jar.get('acme_session')).toBeDefined();
    await expectExpiredPage(await send(jar, form, { headers: html }));
  });

  test('keeps the JSON error for an API client', async ({ server }) => {
    const response = await fetch(`${server.baseUrl}/dev-idp/interaction/no-such-interaction`, { headers: json });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'invalid_request' });
  });
});
