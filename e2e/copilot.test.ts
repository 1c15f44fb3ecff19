import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { siteBuildDirectory, startServer } from './harness';

test.override({ serverEnvironment: { ASK_REQUESTS_PER_MINUTE: '1000' } });

/**
 * Whether a built script holds the chat's code: an answer's "Read aloud" action is a string only the full chat has (the
 * light chat of the first click, in the first paint, shares the composer's placeholder but draws no answers).
 */
const isChatChunk = (script: string) =>
  readFileSync(path.join(siteBuildDirectory, script), 'utf8').includes('Read aloud');

describe('the floating assistant', () => {
  test('is not in the first paint of a doc page; its chunk is fetched once the page is idle, before the click', async ({
    reader: { site, copilot },
  }) => {
    // The page's idle callbacks wait until the test runs them, so "first paint" and "idle" are told apart.
    await site.page.addInitScript(() => {
      const held: (() => void)[] = [];
      Object.assign(window, { heldIdleCallbacks: held });
      window.requestIdleCallback = (callback) => held.push(() => callback({} as IdleDeadline));
    });
    const scripts: string[] = [];
    site.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await site.open('/firestore-ttl');
    await site.page.waitForLoadState('networkidle');
    const firstPaint = [...scripts];
    expect(firstPaint.length).toBeGreaterThan(0);
    expect(firstPaint.filter(isChatChunk)).toEqual([]);
    await site.page.evaluate(() => {
      for (const run of (window as unknown as { heldIdleCallbacks: (() => void)[] }).heldIdleCallbacks) run();
    });
    await expect.poll(() => scripts.slice(firstPaint.length).some(isChatChunk)).toBe(true);
    await site.page.waitForLoadState('networkidle');
    const beforeClick = scripts.length;
    await copilot.open();
    expect(scripts.slice(beforeClick)).toEqual([]);
  });

  test('fetches its chunk when the pointer comes near the launcher', async ({ reader: { site, copilot } }) => {
    await site.page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    const scripts: string[] = [];
    site.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await site.open('/firestore-ttl');
    await site.page.waitForLoadState('networkidle');
    await site.page.mouse.move(200, 200);
    expect(scripts.filter(isChatChunk)).toEqual([]);
    const launcher = await copilot.launcher.boundingBox();
    if (!launcher) throw new Error('no launcher');
    // Still 150 px short of the button.
    await site.page.mouse.move(launcher.x - 150, launcher.y, { steps: 5 });
    await expect.poll(() => scripts.some(isChatChunk)).toBe(true);
  });

  test('greets with the avatar, the introduction and suggestions, one of them about the page', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/firestore-ttl');
    await copilot.open();
    const welcome = await copilot.welcome.innerText();
    expect(welcome).toContain("the team's development copilot");
    expect(welcome).toContain('I answer from the Acme developer handbook and link the sections I quote.');
    expect(welcome).toContain('How can I help you today?');
    expect(await copilot.welcome.locator('button').count()).toBeGreaterThanOrEqual(3);
    await copilot.welcome.getByRole('button', { name: 'Ask about this page' }).click();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toContain('Firestore TTL');
    expect(await copilot.lastAnswer.getByTestId('copilot-sources').innerText()).toContain('Firestore TTL');
    // What the page is for, then its sections, each a link to its place on the page.
    const answer = copilot.lastAnswer;
    expect(await answer.innerText()).toContain('How Acme uses Firestore TTL policies to expire sessions');
    const section = answer.getByRole('link', { name: 'Turning a policy off', exact: true });
    expect(await section.getAttribute('href')).toBe('/firestore-ttl#turning-a-policy-off');
    await section.click();
    await site.page.waitForURL('**/firestore-ttl#turning-a-policy-off');
    await expect.poll(() => site.page.locator('[id="turning-a-policy-off"]').isVisible()).toBe(true);
  });

  test('streams a docs-only answer whose sources open the exact section', async ({ reader: { site, copilot } }) => {
    await copilot.askFirstOn(site, '/', 'How do I create a TTL policy for expireAt in Firestore?');
    expect(await copilot.lastAnswer.innerText()).toContain('Firestore TTL');
    const source = copilot.lastAnswer.getByTestId('copilot-sources').getByRole('link').first();
    const href = (await source.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/firestore-ttl#[\w-]+$/);
    await source.click();
    await site.page.waitForURL(`**${href}`);
    const anchor = href.split('#')[1] ?? '';
    // The URL changes before the new page is rendered (its code may still be loading).
    await expect.poll(() => site.page.locator(`[id="${anchor}"]`).count()).toBe(1);
    // Client-side navigation keeps the conversation open.
    expect(await copilot.popover.isVisible()).toBe(true);
  });

  test('keeps the conversation across a reload and in a second server on the same store', async ({
    reader: { site, copilot },
    server,
  }) => {
    await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
    const answer = await copilot.lastAnswer.innerText();

    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toContain('How do I register a GitLab runner?');
    expect(await copilot.lastAnswer.innerText()).toBe(answer);

    // Nothing of the conversation lives in the server process: another server on the same store has it all. The
    // reader is the same session (cookies do not tell ports apart): a sign-in at the second server's own development
    // IdP would be another issuer, and so, rightly, another reader. Instances on one store share SESSION_SECRET.
    const second = await startServer(
      { ASK_REQUESTS_PER_MINUTE: '1000', SESSION_SECRET: server.config.sessionSecret },
      { store: server.store },
    );
    try {
      await site.page.goto(`${second.baseUrl}/`);
      await copilot.open();
      await copilot.waitForAnswer(1);
      expect(await copilot.lastAnswer.innerText()).toBe(answer);
    } finally {
      await second.close();
    }
  });
});

describe('the chat header', () => {
  test('starts a new conversation, and the latest one is what comes back after a reload', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/');
    await copilot.open();
    const newConversation = copilot.popover.getByRole('button', { name: 'New conversation' });
    expect(await newConversation.isDisabled()).toBe(true);
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await newConversation.click();
    await copilot.welcome.waitFor();
    await copilot.ask('How do I use WSL?');
    await copilot.waitForAnswer(1);
    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.count()).toBe(1);
    expect(await copilot.userMessages.first().innerText()).toContain('WSL');

    await copilot.popover.getByRole('link', { name: 'Open all conversations' }).click();
    await site.page.waitForURL('**/dev-copilot');
    await expect.poll(() => site.page.getByTestId('regular-threads').getByTestId('thread-row').count()).toBe(2);
  });

  test('continues the stored conversation after a reload: the next question follows its last answer', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/');
    await copilot.open();
    await copilot.ask('How do I register a GitLab runner?');
    await copilot.waitForAnswer(1);
    await copilot.waitUntilSaved();
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(1);

    const turns: Array<{ parentId?: string | null; threadId?: string }> = [];
    site.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/turns') turns.push(request.postDataJSON());
    });
    await copilot.ask('Which tags does it need?');
    await copilot.waitForAnswer(2);
    await copilot.waitUntilSaved();
    expect(turns).toHaveLength(1);
    expect(turns[0]?.parentId).toEqual(expect.any(String));

    // Read back after another reload: one branch, both questions in order, no "2 / 2".
    await site.page.reload();
    await copilot.open();
    await copilot.waitForAnswer(2);
    expect(await copilot.userMessages.allInnerTexts()).toEqual([
      expect.stringContaining('GitLab runner'),
      expect.stringContaining('tags'),
    ]);
  });

  test('offers "Ask about this page" for the page on screen after client-side navigation', async ({
    reader: { site, copilot },
  }) => {
    await site.open('/firestore-ttl');
    await copilot.open();
    await copilot.launcher.click();
    await site.page.locator('.navbar').getByRole('link', { name: 'Coding Standard' }).click();
    await site.page.waitForURL('**/coding-standard/');
    // The URL changes first; the new page is on screen once its own heading is.
    await site.page.locator('.theme-doc-markdown h1', { hasText: 'Coding Standard' }).waitFor();
    await copilot.launcher.click();
    await copilot.welcome.getByRole('button', { name: 'Ask about this page' }).click();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.first().innerText()).toContain('"Coding Standard"');
  });
});
