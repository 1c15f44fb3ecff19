import { expect } from 'vitest';
import { seriousAxeViolations, startBeforeTests, startConversations, test } from './copilot-page-support';

/** The assistant page (/dev-copilot): the reader's conversations beside the open one (spec section 4). */

startBeforeTests();

test('names a new conversation after its first question as soon as it is answered', async ({
  reader: { site, copilot },
  list,
}) => {
  const threadCalls: string[] = [];
  site.page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname.startsWith('/api/threads')) threadCalls.push(`${request.method()} ${pathname}${search}`);
  });
  await site.open('/dev-copilot');
  expect(await copilot.launcher.count()).toBe(0);
  await copilot.ask('How do I register a GitLab runner?');
  await copilot.waitForAnswer(1);
  await expect.poll(() => list.current.innerText()).toContain('GitLab runner');
  // One call lists the conversations, one creates this one; its title comes with the turn, so none reads it again.
  await copilot.waitUntilSaved();
  expect(threadCalls).toEqual(['GET /api/threads', 'POST /api/threads']);
  await list.newConversation();
  await copilot.welcome.waitFor();
  await copilot.ask('How do I use WSL?');
  await copilot.waitForAnswer(1);
  await expect.poll(() => list.current.innerText()).toContain('WSL');
  expect(await list.regular.allInnerTexts()).toEqual([
    expect.stringContaining('WSL'),
    expect.stringContaining('GitLab runner'),
  ]);
});

test('treats the conversation it opens with as the open one: deleting it starts a new one', async ({
  reader,
  list,
}) => {
  const { site, copilot } = reader;
  // The server stored the turn: the page opens with that conversation again.
  await startConversations(reader, list, ['How do I register a GitLab runner?']);
  await expect.poll(() => list.current.innerText()).toContain('GitLab runner');
  expect(await copilot.userMessages.allInnerTexts()).toEqual([expect.stringContaining('GitLab runner')]);

  // Delete asks first; Keep leaves the conversation as it was.
  await list.row('GitLab runner').getByRole('button', { name: 'Delete' }).click();
  await list.row('GitLab runner').getByRole('button', { name: 'Keep' }).click();
  expect(await list.regular.count()).toBe(1);
  expect(await copilot.userMessages.count()).toBe(1);
  await list.delete('GitLab runner');
  await copilot.welcome.waitFor();
  await expect.poll(() => list.regular.count()).toBe(0);

  await copilot.ask('How do I use WSL?');
  await copilot.waitForAnswer(1);
  await expect.poll(() => list.regular.count()).toBe(1);
  await site.page.reload();
  await expect.poll(() => list.regular.allInnerTexts()).toEqual([expect.stringContaining('WSL')]);
  expect(await site.page.getByTestId('copilot-save-problem').count()).toBe(0);
});

test('archiving or deleting the open conversation moves to the newest regular one, then to a new one', async ({
  reader,
  list,
}) => {
  const { copilot } = reader;
  await startConversations(reader, list, [
    'How do I register a GitLab runner?',
    'How do I create a TTL policy?',
    'How do I use WSL?',
  ]);
  await expect.poll(() => list.current.innerText()).toContain('WSL');

  await list.row('WSL').getByRole('button', { name: 'Archive' }).click();
  await expect.poll(() => list.archived.count()).toBe(1);
  await expect.poll(() => list.current.innerText()).toContain('TTL policy');
  await expect.poll(() => copilot.userMessages.first().innerText()).toContain('TTL policy');

  await list.delete('TTL policy');
  await expect.poll(() => list.current.innerText()).toContain('GitLab runner');
  await expect.poll(() => copilot.userMessages.first().innerText()).toContain('GitLab runner');

  await list.delete('GitLab runner');
  await expect.poll(() => list.regular.count()).toBe(0);
  await copilot.welcome.waitFor();
  expect(await list.archived.allTextContents()).toEqual([expect.stringContaining('WSL')]);
});

test('keeps archived conversations in their own section until unarchived, and renames one for good', async ({
  reader,
  list,
}) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);

  await list.row('GitLab runner').getByRole('button', { name: 'Archive' }).click();
  await expect.poll(() => list.regular.count()).toBe(1);
  // The conversation being read stays open when another one is archived.
  expect(await list.current.innerText()).toContain('WSL');
  await site.page.reload();
  await site.page.getByText('Archived (1)').click();
  expect(await list.archived.allInnerTexts()).toEqual([expect.stringContaining('GitLab runner')]);
  // An archived conversation can only be unarchived or deleted.
  expect(
    await list
      .row('GitLab runner')
      .getByRole('button', { name: /^Archive / })
      .count(),
  ).toBe(0);
  await list.row('GitLab runner').getByRole('button', { name: 'Unarchive' }).click();
  await expect.poll(() => list.regular.count()).toBe(2);
  await expect.poll(() => site.page.getByText('Archived (').count()).toBe(0);

  await list.row('WSL').getByRole('button', { name: 'Rename' }).click();
  await site.page.getByRole('textbox', { name: 'New title' }).fill('Windows setup');
  await site.page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => list.current.innerText()).toContain('Windows setup');
  await site.page.reload();
  await expect
    .poll(() => list.regular.allInnerTexts())
    .toEqual([expect.stringContaining('Windows setup'), expect.stringContaining('GitLab runner')]);
});

test('has no serious or critical axe-core violations on the page with its lists, light and dark', async ({
  reader,
  list,
}) => {
  const { site } = reader;
  await startConversations(reader, list, ['How do I register a GitLab runner?', 'How do I use WSL?']);
  await list.row('GitLab runner').getByRole('button', { name: 'Archive' }).click();
  await site.page.getByText('Archived (1)').click();
  await list.archived.first().waitFor();
  const page = '[data-testid="copilot-page"]';
  expect(await seriousAxeViolations(site.page, page)).toEqual([]);
  await site.page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => site.theme()).toBe('dark');
  // Infima animates colours: measure again until the switch has finished.
  await expect.poll(() => seriousAxeViolations(site.page, page), { timeout: 5000 }).toEqual([]);
});

test('lists the 50 most recent conversations and shows the older ones on "Show older conversations"', async ({
  reader,
  server,
  list,
}) => {
  const { site, context } = reader;
  for (let i = 0; i < 52; i++) {
    const made = await context.request.post(`${server.baseUrl}/api/threads`, {
      data: { title: `Kept chat ${i}` },
      headers: { origin: server.baseUrl },
    });
    expect(made.status()).toBe(201);
  }
  const pages: string[] = [];
  site.page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname === '/api/threads' && request.method() === 'GET') pages.push(search);
  });
  await site.open('/dev-copilot');
  await expect.poll(() => list.regular.count()).toBe(50);
  expect(await list.regular.first().innerText()).toContain('Kept chat 51');
  expect(await list.row('Kept chat 0').count()).toBe(0);

  const older = site.page.getByRole('button', { name: 'Show older conversations' });
  await older.click();
  await expect.poll(() => list.regular.count()).toBe(52);
  expect(await list.regular.last().innerText()).toContain('Kept chat 0');
  await expect.poll(() => older.count()).toBe(0);
  expect(pages).toEqual(['', expect.stringMatching(/^\?after=\d+_[\w-]+$/)]);
});
