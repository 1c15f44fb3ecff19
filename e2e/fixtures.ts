import { randomUUID } from 'node:crypto';
import { test as base, expect } from 'vitest';
import { startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { launchBrowser, startServer } from './harness';
import { openReader } from './pages/copilot';
import { DocsSite } from './pages/docs-site';
import { signInContext } from './pages/sign-in-pages';
import { sessionCookieFor } from './sign-in';

/**
 * The whole running product for a test file: one real server (development IdP, in-memory PGlite, the built site)
 * and one Chromium per file; per test a fresh browser context and pages in it. Everything is started when a test
 * first asks for it and closed after the last test of the file.
 *
 * ```ts
 * import { expect } from 'vitest';
 * import { test } from './fixtures';
 *
 * // Optional, at the top level of the file only (the server is shared by the whole file):
 * test.override({ serverEnvironment: { SEARCH_REQUESTS_PER_MINUTE: '3' }, readerEmail: 'typist@acme.dev' });
 *
 * test('opens a page signed in', async ({ server, signedInPage }) => {
 *   await signedInPage.goto(`${server.baseUrl}/faqs/`);
 * });
 * test('asks the API with a session', async ({ server, sessionCookie }) => {
 *   await server.app.inject({ url: '/api/search?q=ttl', headers: { cookie: sessionCookie } });
 * });
 * ```
 */
export const test = base
  /** Environment variables for this file's server, over the test defaults (free port, built site, LOG_LEVEL=warn). */
  .extend('serverEnvironment', { scope: 'file' }, {} as Record<string, string>)
  /** Whether the file's server answers with a model: a local server speaking the OpenAI protocol (`fakeModel`). */
  .extend('withModel', { scope: 'file' }, false)
  .extend('server', { scope: 'file' }, async ({ serverEnvironment, withModel }, { onCleanup }) => {
    const fakeModel = withModel ? await startFakeModelServer() : undefined;
    const model: Record<string, string> = fakeModel
      ? { COPILOT_PROVIDER: 'openai-compatible', COPILOT_MODEL: 'test-model', COPILOT_BASE_URL: `${fakeModel.url}/v1` }
      : {};
    const server = await startServer({ ...model, ...serverEnvironment });
    onCleanup(async () => {
      await server.close();
      await fakeModel?.close();
    });
    return Object.assign(server, { fakeModel });
  })
  /** The file's model stand-in, reset for each test: script its answers, read what it was asked (`withModel`). */
  .extend('fakeModel', async ({ server }) => {
    if (!server.fakeModel) throw new Error('Set test.override({ withModel: true }) to use fakeModel');
    server.fakeModel.reset();
    return server.fakeModel;
  })
  /** Who `sessionCookie`, `signedInPage` and `docsSite` are signed in as. */
  .extend('readerEmail', { scope: 'file' }, 'reader@acme.dev')
  /** A `cookie` header with an allowed session of `readerEmail`, signed in once per file through the dev IdP. */
  .extend('sessionCookie', { scope: 'file' }, async ({ server, readerEmail }) =>
    sessionCookieFor(server.baseUrl, readerEmail),
  )
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern.
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
    const browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  /** A fresh browser context (no cookies, 1280 x 900, 10 s for any wait). */
  .extend('context', async ({ browser }, { onCleanup }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    onCleanup(() => context.close());
    return context;
  })
  /** A page of the test's context, signed out. */
  .extend('page', async ({ context }) => context.newPage())
  /** A page of the test's context, which is signed in as `readerEmail` through the development IdP. */
  .extend('signedInPage', async ({ context, server, readerEmail }) => {
    await signInContext(context, server.baseUrl, readerEmail);
    return context.newPage();
  })
  /**
   * A reader of the test's own (a new e-mail each test, so one test's conversation is never another's latest),
   * signed in, on the docs site with Dev Copilot at hand; the test fails if the browser refused anything under our CSP.
   */
  .extend('reader', async ({ browser, server }, { onCleanup }) => {
    const email = `reader-${randomUUID().slice(0, 8)}@acme.dev`;
    const reader = await openReader(browser, server.baseUrl, email);
    onCleanup(async () => {
      await reader.context.close();
      expect(reader.site.policyViolations).toEqual([]);
    });
    return { ...reader, email };
  })
  /** The signed-in page as the docs site; the test fails if the browser refused anything under our CSP. */
  .extend('docsSite', async ({ signedInPage, server }, { onCleanup }) => {
    const site = new DocsSite(signedInPage, server.baseUrl);
    onCleanup(async () => {
      await signedInPage.context().close();
      expect(site.policyViolations).toEqual([]);
    });
    return site;
  });
