import { describe, expect } from 'vitest';
import { createPersonalToken, findPersonalToken } from '../server/src/store/personal-tokens.js';
import { axeViolations } from './axe';
import { test } from './fixtures';
import { focusedName } from './focus';
import { tokensApi, withToken } from './tokens-api';

/**
 * The access-tokens page in Chromium, with the keyboard and on a phone: where the focus goes after each choice, and a
 * table of tokens that never makes the page scroll sideways.
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

// The file's server, session and browser start before the first test, so its time limit is its own.
test.beforeAll(async ({ sessionCookie, browser }) => {
  expect(sessionCookie).toContain('acme_session=');
  expect(browser.isConnected()).toBe(true);
});

// Each test starts with no tokens, so one test's rows are never in another's table.
test.beforeEach(async ({ server, sessionCookie }) => {
  const api = tokensApi(server.baseUrl, sessionCookie);
  for (const { id } of (await api.list()).tokens) await api.revoke(id);
});

describe('the access-tokens page, with the keyboard', () => {
  test('Escape on "Revoke for good?" keeps the token and puts the focus back on its Revoke button', async ({
    docsSite,
    server,
    sessionCookie,
  }) => {
    await tokensApi(server.baseUrl, sessionCookie).create('laptop agent');
    await docsSite.open('/access-tokens');
    const revoke = docsSite.page.getByRole('button', { name: 'Revoke laptop agent' });
    await revoke.click();
    expect(await focusedName(docsSite.page)).toBe('Keep');
    await docsSite.page.keyboard.press('Escape');
    await revoke.waitFor();
    expect(await docsSite.page.getByText('Revoke for good?').count()).toBe(0);
    expect(await focusedName(docsSite.page)).toBe('Revoke laptop agent');
    expect((await tokensApi(server.baseUrl, sessionCookie).list()).tokens).toHaveLength(1);
  });

  test('Keep puts the focus back on the Revoke button that asked', async ({ docsSite, server, sessionCookie }) => {
    await tokensApi(server.baseUrl, sessionCookie).create('laptop agent');
    await docsSite.open('/access-tokens');
    await docsSite.page.getByRole('button', { name: 'Revoke laptop agent' }).click();
    await docsSite.page.keyboard.press('Enter');
    await docsSite.page.getByRole('button', { name: 'Revoke laptop agent' }).waitFor();
    expect(await focusedName(docsSite.page)).toBe('Revoke laptop agent');
  });

  test('revoking moves the focus to the next Revoke button, then to "no tokens", and says what was revoked', async ({
    docsSite,
    server,
    sessionCookie,
  }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    await api.create('older agent');
    await api.create('newer agent');
    await docsSite.open('/access-tokens');
    const page = docsSite.page;
    await page.getByRole('button', { name: 'Revoke newer agent' }).click();
    await page.getByRole('button', { name: 'Yes, revoke newer agent' }).click();
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(1);
    await expect.poll(() => focusedName(page)).toBe('Revoke older agent');
    expect(await page.getByTestId('token-status').textContent()).toBe('newer agent revoked.');

    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Yes, revoke older agent' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('no-tokens').waitFor();
    await expect.poll(() => focusedName(page)).toBe('You have no access tokens.');
    expect(await page.getByTestId('token-status').textContent()).toBe('older agent revoked.');
  });

  test('after a revoke the focus goes by row to the token in its place, not by counting the Revoke buttons', async ({
    docsSite,
    server,
    sessionCookie,
  }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    for (const name of ['first agent', 'second agent', 'third agent']) await api.create(name);
    await docsSite.open('/access-tokens');
    const page = docsSite.page;
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(3);
    const [top, middle, bottom] = await page
      .getByTestId('token-row')
      .evaluateAll((rows) => rows.map((row) => (row as HTMLTableRowElement).cells[0]?.textContent ?? ''));
    // The top row asks "Revoke for good?" all along: it has no Revoke button, so the rows below it count one less.
    await page.getByRole('button', { name: `Revoke ${top}` }).click();
    await page.getByRole('button', { name: `Revoke ${bottom}` }).click();
    await page.getByRole('button', { name: `Yes, revoke ${bottom}` }).click();
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(2);
    await expect.poll(() => focusedName(page)).toBe(`Revoke ${middle}`);

    // The row above the revoked one is the one still asking: its Keep, the safe choice, takes the focus.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Yes, revoke ${middle}` }).click();
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(1);
    await expect.poll(() => focusedName(page)).toBe('Keep');
    expect(await page.getByText('Revoke for good?').count()).toBe(1);
  });

  test('says each revoke, even of a second token with the same name', async ({ docsSite, server, sessionCookie }) => {
    // New tokens' names differ; a reader may still hold two alike made before that, stored here as they were.
    const { id } = await tokensApi(server.baseUrl, sessionCookie).create('laptop agent');
    const { db } = server.app.store;
    const first = await findPersonalToken(db, { id });
    if (!first) throw new Error('The token was not stored.');
    await createPersonalToken(db, { ...first, id: `${id.slice(0, -1)}${id.endsWith('x') ? 'y' : 'x'}` });
    await docsSite.open('/access-tokens');
    const page = docsSite.page;
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(2);
    // Every text the polite status holds, in turn: a screen reader says a text only when it changes.
    await page.getByTestId('token-status').evaluate((status) => {
      const texts: string[] = [];
      Object.assign(window, { statusTexts: texts });
      new MutationObserver(() => texts.push(status.textContent ?? '')).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    for (const left of [1, 0]) {
      await page.getByRole('button', { name: 'Revoke laptop agent' }).first().click();
      await page.getByRole('button', { name: 'Yes, revoke laptop agent' }).click();
      await expect.poll(() => page.getByTestId('token-row').count()).toBe(left);
      await expect.poll(() => page.getByTestId('token-status').textContent()).toBe('laptop agent revoked.');
    }
    const texts = await page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);
    expect(texts.filter((text) => text !== '')).toEqual(['laptop agent revoked.', 'laptop agent revoked.']);
  });

  test('"Create token" moves the focus to the new token\'s Copy button, described by "shown only this once"', async ({
    docsSite,
  }) => {
    await docsSite.open('/access-tokens');
    const page = docsSite.page;
    await page.getByTestId('no-tokens').waitFor();
    await page.getByLabel('Name').fill('new agent');
    await page.getByLabel('Name').press('Enter');
    await page.getByTestId('created-token').waitFor();
    await expect.poll(() => focusedName(page)).toBe('Copy token');
    const description = await page.evaluate(() => {
      const ids = document.activeElement?.getAttribute('aria-describedby') ?? '';
      return ids
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ');
    });
    expect(description).toContain('shown only this once');
  });
});

describe("the access-tokens page's Copy token", () => {
  test('says "Copied" on the button and "Token copied" in a polite status, then reverts', async ({
    docsSite,
    server,
  }) => {
    const page = docsSite.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await docsSite.open('/access-tokens');
    await page.getByTestId('no-tokens').waitFor();
    await page.getByLabel('Name').fill('copied agent');
    await page.getByLabel('Name').press('Enter');
    const notice = page.getByTestId('created-token');
    const token = await page.getByTestId('created-token-value').innerText();
    const status = notice.getByRole('status');
    expect(await status.textContent()).toBe('');
    await notice.getByRole('button', { name: 'Copy token' }).click();
    await notice.getByRole('button', { name: 'Copied', exact: true }).waitFor({ timeout: 2_000 });
    expect(await status.textContent()).toBe('Token copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    // The chat's copied state lasts 3 s (useCopiedState); then the button and the status are as they were.
    await notice.getByRole('button', { name: 'Copy token' }).waitFor({ timeout: 5_000 });
    expect(await status.textContent()).toBe('');
  });
});

describe("the access-tokens page's Claude Code setup", () => {
  test('is a .mcp.json naming the variable, not a command whose shell would write the token into a file', async ({
    docsSite,
    server,
  }) => {
    await docsSite.open('/access-tokens');
    const page = docsSite.page;
    await page.getByTestId('no-tokens').waitFor();
    await page.getByLabel('Name').fill('Claude Code on my laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByTestId('created-token-value').innerText();
    await page.getByText('Add the handbook to Claude Code with it').click();
    expect(await page.getByTestId('created-token').innerText()).toContain('put this in .mcp.json');
    const setup = await page.getByTestId('created-token-claude-code').innerText();
    expect(JSON.parse(setup)).toEqual({
      mcpServers: {
        'acme-handbook': {
          type: 'http',
          url: `${server.baseUrl}/mcp`,
          headers: { Authorization: `Bearer \${ACME_HANDBOOK_TOKEN}` },
        },
      },
    });
    expect(setup).not.toContain(token);
  });
});

describe('the access-tokens page on a phone', () => {
  test('shows each token as a card, Revoke on screen, without scrolling sideways, still a table to a screen reader', async ({
    docsSite,
    server,
    sessionCookie,
  }) => {
    const api = tokensApi(server.baseUrl, sessionCookie);
    // A used token shows its last use with a date and a time, the longest cell of a row.
    const { token, id } = await api.create('Claude Code on my laptop');
    await api.create('nightly docs check');
    expect((await fetch(`${server.baseUrl}/api/search?q=ttl`, withToken(token))).status).toBe(200);
    await expect
      .poll(async () => (await api.list()).tokens.find((listed) => listed.id === id)?.lastUsedAt)
      .not.toBeNull();

    const page = docsSite.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await docsSite.open('/access-tokens');
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    for (const row of await page.getByTestId('token-row').all()) {
      // Scrolled down to, never sideways: every field and the Revoke button lie inside the window, and nothing covers
      // or clips the button (a box scrolling sideways would).
      const seen = await row.evaluate((element) => {
        window.scrollBy(0, element.getBoundingClientRect().top - window.innerHeight / 3);
        const inside = (box: DOMRect) => box.left >= 0 && box.right <= window.innerWidth;
        const button = element.querySelector('button[data-revoke]') as HTMLElement;
        const { left, top, width, height } = button.getBoundingClientRect();
        return {
          fields: [...element.children].every((cell) => inside(cell.getBoundingClientRect())),
          revoke: inside(button.getBoundingClientRect()),
          revokeUncovered: document.elementFromPoint(left + width / 2, top + height / 2) === button,
          labels: ['Created', 'Last used', 'Expires'].every((label) =>
            (element as HTMLElement).innerText.includes(label),
          ),
        };
      });
      expect(seen).toEqual({ fields: true, revoke: true, revokeUncovered: true, labels: true });
    }
    // Chromium's accessibility tree still has the table, its column headers and a cell for each field.
    const accessibility = await page.context().newCDPSession(page);
    const { nodes } = await accessibility.send('Accessibility.getFullAXTree');
    const roles = nodes.filter((node) => !node.ignored).map((node) => String(node.role?.value));
    const count = (role: string) => roles.filter((found) => found === role).length;
    expect({
      table: count('table'),
      row: count('row'),
      columnheader: count('columnheader'),
      cell: count('cell'),
    }).toEqual({
      table: 1,
      row: 3,
      columnheader: 5,
      cell: 10,
    });
    expect(await axeViolations(page)).toEqual([]);
  });
});
