import { describe, expect } from 'vitest';
import { deleteSession } from '../server/src/store/sessions.js';
import { test } from './fixtures';
import { idHashOfCookie } from './gate-security';
import { CopilotThreadList } from './pages/copilot';
import { DocsSite } from './pages/docs-site';
import { signInContext } from './pages/sign-in-pages';

/**
 * Five more things a reader's review found, in Chromium: a session that ended while the page was open, answers copied
 * with links that lead nowhere once pasted, a token copy said twice, a hydration error on /insights for a reader who
 * is no maintainer, and a conversation named after a first question the reader had since edited.
 */
const maintainer = 'docs.lead@acme.dev';
test.override({
  serverEnvironment: { MAINTAINERS: maintainer, ASK_REQUESTS_PER_MINUTE: '1000', LOG_LEVEL: 'silent' },
  withModel: true,
});

// The file's server and browser start before the first test, so its time limit is its own.
test.beforeAll(async ({ server, browser }) => {
  expect(browser.isConnected()).toBe(true);
  expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

const sessionEnded = 'Your session has ended. Reload the page and sign in again.';

describe('a session that ends while the page is open', () => {
  test('the chat offers a reload, not a Retry, and the search says how to sign in again', async ({
    reader: { site, copilot, context },
    server,
  }) => {
    await site.open('/faqs/');
    await copilot.open();
    await copilot.composerInput.fill('How do I rotate the Typesense admin key?');
    // The session ends on the server (it expired, or was signed out elsewhere); the browser still sends its cookie.
    const cookie = (await context.cookies()).find(({ name }) => name === 'acme_session');
    await deleteSession(server.store.db, { idHash: idHashOfCookie(cookie?.value ?? '') });
    // The server reads sessions through a short cache: the next question is sent once the server has noticed.
    const me = () =>
      server.app
        .inject({ url: '/api/me', headers: { cookie: `${cookie?.name}=${cookie?.value}` } })
        .then((r) => r.statusCode);
    await expect.poll(me, { timeout: 15_000 }).toBe(401);

    await copilot.composerInput.press('Enter');
    const problem = site.page.getByTestId('copilot-start-problem');
    await problem.waitFor();
    expect(await problem.innerText()).toContain(sessionEnded);
    expect(await problem.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // The question is back in the composer, as after any failed start.
    expect(await copilot.composerInput.inputValue()).toBe('How do I rotate the Typesense admin key?');

    await site.search('typesense');
    await expect.poll(() => site.searchDropdown.innerText()).toContain(sessionEnded);

    // The reload brings the sign-in page, which leads back to this page.
    await problem.getByRole('button', { name: 'Reload the page' }).click();
    await site.page.getByTestId('gate-login').waitFor();
  });
});

describe('Copy on an answer', () => {
  test("puts the handbook's links on the clipboard as absolute addresses", async ({
    reader: { site, copilot, context },
    server,
    fakeModel,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    fakeModel.behave({
      reply:
        'Ship inside [the release window](/go-live-procedure#the-release-window), see [Google](https://google.com).',
    });
    await copilot.askFirstOn(site, '/faqs/', 'When can we release?');
    const copy = copilot.action(0, 'Copy');
    await copy.click();
    await expect.poll(() => copy.getAttribute('data-copied')).toBe('true');
    const clipboard = await site.page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toContain(`[the release window](${server.baseUrl}/go-live-procedure#the-release-window)`);
    expect(clipboard).toContain('[Google](https://google.com)');
  });
});

describe("the access-tokens page's Copy token", () => {
  test('shows "Copied" once, on the button, and says it to screen readers in its status', async ({
    reader: { site, context },
    server,
  }) => {
    const page = site.page;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await site.open('/access-tokens');
    await page.getByLabel('Name').fill('laptop agent');
    await page.getByLabel('Name').press('Enter');
    const notice = page.getByTestId('created-token');
    await notice.getByRole('button', { name: 'Copy token' }).click();
    await notice.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await notice.getByRole('status').textContent()).toBe('Token copied');
    // Drawn text saying "copied", wherever it is in the notice: the button's alone.
    const drawn = await notice.evaluate((root) => {
      const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const found: string[] = [];
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        const box = (node.parentElement as HTMLElement).getBoundingClientRect();
        if (/copied/i.test(node.textContent ?? '') && box.width > 1 && box.height > 1)
          found.push(node.textContent ?? '');
      }
      return found;
    });
    expect(drawn).toEqual(['Copied']);
  });
});

describe('/insights for a reader who is no maintainer', () => {
  test('is the not-found page, hydrated without an error', async ({ server, browser }) => {
    const context = await browser.newContext();
    await signInContext(context, server.baseUrl, 'not.a.maintainer@acme.dev');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    const site = new DocsSite(page, server.baseUrl);
    expect((await site.open('/insights'))?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.waitForLoadState('networkidle');
    // The 404 response itself is logged as a failed resource; nothing else may be.
    expect(errors.filter((text) => !text.startsWith('Failed to load resource'))).toEqual([]);
    await context.close();
  });

  test('still opens the insights for a maintainer, also after an unknown address', async ({ server, browser }) => {
    const context = await browser.newContext();
    await signInContext(context, server.baseUrl, maintainer);
    const site = new DocsSite(await context.newPage(), server.baseUrl);
    await site.open('/no-such-page');
    await site.page.getByTestId('insights-link').click();
    await site.page.getByRole('heading', { name: 'Insights', exact: true }).waitFor();
    await context.close();
  });
});

describe("a conversation's title", () => {
  test('follows an edit of its first question, at once and after a reload', async ({ reader: { site, copilot } }) => {
    const list = new CopilotThreadList(site.page);
    await site.open('/dev-copilot');
    await copilot.ask('what is a SEV3?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.current.innerText()).toContain('what is a SEV3?');

    await copilot.editQuestion(0, 'what is a SEV4?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.current.innerText()).toContain('what is a SEV4?');
    await copilot.waitUntilSaved();
    await site.page.reload();
    await expect.poll(() => list.current.innerText()).toContain('what is a SEV4?');
  });

  test('follows the reader back to the question as first asked, at once and after a reload', async ({
    reader: { site, copilot },
  }) => {
    const list = new CopilotThreadList(site.page);
    await site.open('/dev-copilot');
    await copilot.ask('what is a SEV3?');
    await copilot.waitForAnswer(1);
    await copilot.editQuestion(0, 'what is a SEV4?');
    await copilot.waitForAnswer(1);
    await expect.poll(() => list.current.innerText()).toContain('what is a SEV4?');

    await copilot.userMessages.first().getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => copilot.branchState(copilot.userMessages.first()).innerText()).toBe('1 / 2');
    await expect.poll(() => list.current.innerText()).toContain('what is a SEV3?');
    await copilot.waitUntilSaved();
    await site.page.reload();
    await expect.poll(() => list.current.innerText()).toContain('what is a SEV3?');
  });
});
