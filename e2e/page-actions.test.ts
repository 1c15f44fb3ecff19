import { describe, expect } from 'vitest';
import { axeViolations } from './axe';
import { startBeforeTests, test } from './copilot-page-support';

/**
 * The page menu beside a doc page's title and the access-tokens page (issue 28, items 1 and 4), in Chromium:
 * keyboard reachable, doing what each item says, axe-clean in the light and the dark theme.
 */
startBeforeTests();

describe('the page menu', () => {
  test('opens from the keyboard, views the page as Markdown and closes with Escape', async ({ reader: { site } }) => {
    await site.open('/firestore-ttl');
    const menu = site.page.getByTestId('page-actions');
    const toggle = menu.getByRole('button', { name: 'Page actions' });
    await toggle.focus();
    await site.page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await site.page.keyboard.press('Tab');
    const focused = await site.page.evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe('Copy page as Markdown');
    expect(await menu.getByRole('link', { name: 'View as Markdown' }).getAttribute('href')).toBe('/firestore-ttl.md');
    await site.page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await site.page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/^Page actions/);

    await toggle.click();
    await menu.getByRole('link', { name: 'View as Markdown' }).click();
    await site.page.waitForURL(/\/firestore-ttl\.md$/);
    expect(await site.page.locator('body').innerText()).toContain('# Firestore TTL');
  });

  test('copies the page as Markdown', async ({ reader: { site, context }, server }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await site.open('/coding-standard/');
    const menu = site.page.getByTestId('page-actions');
    await menu.getByRole('button', { name: 'Page actions' }).click();
    await menu.getByRole('button', { name: 'Copy page as Markdown' }).click();
    await menu.getByText('Page copied as Markdown.').waitFor();
    const copied = await site.page.evaluate(() => navigator.clipboard.readText());
    const served = await site.page.evaluate(async () => (await fetch('/coding-standard.md')).text());
    expect(copied).toBe(served);
    expect(copied.startsWith('# ')).toBe(true);
  });

  test("asks Dev Copilot the page's overview question", async ({ reader: { site, copilot } }) => {
    await site.open('/firestore-ttl');
    const menu = site.page.getByTestId('page-actions');
    await menu.getByRole('button', { name: 'Page actions' }).click();
    await menu.getByRole('button', { name: 'Ask Dev Copilot about this page' }).click();
    await copilot.popover.waitFor();
    await copilot.waitForAnswer(1);
    expect(await copilot.userMessages.last().innerText()).toContain(
      'What are the key points of the page "Firestore TTL"?',
    );
    expect(await copilot.lastAnswer.innerText()).toContain('Firestore TTL');
  });
});

describe('the access-tokens page', () => {
  test('makes a token shown once, lists it and revokes it', async ({ reader: { site }, server }) => {
    await site.open('/access-tokens');
    await site.page.getByTestId('no-tokens').waitFor();
    await site.page.getByLabel('Name').fill('Claude Code on my laptop');
    await site.page.getByLabel('Expires after').selectOption('90');
    await site.page.getByRole('button', { name: 'Create token' }).click();
    const token = await site.page.getByTestId('created-token-value').innerText();
    expect(token).toMatch(/^acme_pat_/);
    // A project .mcp.json: this handbook's MCP address, the token read from the environment when Claude Code starts it
    // (a `claude mcp add --header` would have the shell write the token itself into Claude Code's settings).
    await site.page.getByText('Add the handbook to Claude Code with it').click();
    expect(JSON.parse(await site.page.getByTestId('created-token-claude-code').innerText())).toEqual({
      mcpServers: {
        'acme-handbook': {
          type: 'http',
          url: `${server.baseUrl}/mcp`,
          headers: { Authorization: `Bearer \${ACME_HANDBOOK_TOKEN}` },
        },
      },
    });
    expect((await fetch(`${server.baseUrl}/llms.txt`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    const row = site.page.getByTestId('token-row').filter({ hasText: 'Claude Code on my laptop' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Never');

    await site.page.reload();
    await row.waitFor();
    expect(await site.page.getByTestId('created-token').count()).toBe(0);
    // Revoke asks first; Keep leaves the token as it was.
    await row.getByRole('button', { name: 'Revoke Claude Code on my laptop' }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    expect((await fetch(`${server.baseUrl}/llms.txt`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    await row.getByRole('button', { name: 'Revoke Claude Code on my laptop' }).click();
    await row.getByRole('button', { name: 'Yes, revoke Claude Code on my laptop' }).click();
    await site.page.getByTestId('no-tokens').waitFor();
    expect((await fetch(`${server.baseUrl}/llms.txt`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
  });

  test('gives Cursor and VS Code their setups too, none with the token in it, and spaces the form from the list', async ({
    reader: { site },
    server,
  }) => {
    await site.open('/access-tokens');
    await site.page.getByTestId('no-tokens').waitFor();
    const form = await site.page.getByTestId('new-token-form').boundingBox();
    const heading = await site.page.getByRole('heading', { name: 'Your tokens' }).boundingBox();
    expect((heading?.y ?? 0) - ((form?.y ?? 0) + (form?.height ?? 0))).toBeGreaterThanOrEqual(24);

    await site.page.getByLabel('Name').fill('Cursor at work');
    await site.page.getByRole('button', { name: 'Create token' }).click();
    const token = await site.page.getByTestId('created-token-value').innerText();
    await site.page.getByText('Add the handbook to Cursor with it').click();
    const cursor = JSON.parse(await site.page.getByTestId('created-token-cursor').innerText());
    expect(cursor).toEqual({
      mcpServers: {
        'acme-handbook': {
          url: `${server.baseUrl}/mcp`,
          headers: { Authorization: `Bearer \${env:ACME_HANDBOOK_TOKEN}` },
        },
      },
    });
    await site.page.getByText('Add the handbook to VS Code with it').click();
    const vscode = JSON.parse(await site.page.getByTestId('created-token-vscode').innerText());
    expect(vscode.inputs).toEqual([expect.objectContaining({ id: 'acme-handbook-token', password: true })]);
    expect(vscode.servers['acme-handbook']).toEqual({
      type: 'http',
      url: `${server.baseUrl}/mcp`,
      headers: { Authorization: `Bearer \${input:acme-handbook-token}` },
    });
    expect(await site.page.getByTestId('created-token').innerText()).toContain(token);
    for (const setup of ['created-token-claude-code', 'created-token-cursor', 'created-token-vscode']) {
      expect(await site.page.getByTestId(setup).innerText()).not.toContain(token);
    }
  });
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the open page menu and the access-tokens page have no axe violations in the ${colorScheme} theme`, async ({
    reader: { site },
  }) => {
    await site.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await site.open('/firestore-ttl');
    expect(await site.theme()).toBe(colorScheme);
    await site.page.getByTestId('page-actions').getByRole('button', { name: 'Page actions' }).click();
    expect(await axeViolations(site.page)).toEqual([]);
    await site.open('/access-tokens');
    await site.page.getByLabel('Name').fill('axe');
    await site.page.getByRole('button', { name: 'Create token' }).click();
    await site.page.getByTestId('token-row').waitFor();
    expect(await axeViolations(site.page)).toEqual([]);
  });
}
