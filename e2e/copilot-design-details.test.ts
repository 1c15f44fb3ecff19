import { expect } from 'vitest';
import { runAxe } from './axe';
import { startBeforeTests, test } from './copilot-page-support';

/** Small things a careful designer would not ship: landmarks, a silent Read aloud, tooltips, what covers what. */

startBeforeTests();

test('names no two landmarks alike in a thread of several answers with sources (axe landmark-unique)', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/firestore-ttl', 'How do I create a TTL policy for expireAt in Firestore?');
  await copilot.ask('How do I register a GitLab runner?');
  await copilot.waitForAnswer(2);
  await expect.poll(() => site.page.getByTestId('copilot-sources').count()).toBe(2);
  const landmarkRules = (await runAxe(site.page))
    .filter((violation) => violation.id.startsWith('landmark'))
    .map((violation) => violation.id);
  expect(landmarkRules).toEqual([]);
  // Each answer's sources are still a list named "Sources".
  expect(await copilot.lastAnswer.getByRole('list', { name: 'Sources' }).count()).toBe(1);
});

test('offers Read aloud only once the browser has a voice to read with', async ({ reader: { site, copilot } }) => {
  // Headless Chromium has no voices: the page's speech synthesis gets one later, as browsers that load them do.
  await site.page.addInitScript(() => {
    let voices: SpeechSynthesisVoice[] = [];
    window.speechSynthesis.getVoices = () => voices;
    (window as unknown as { addVoice: () => void }).addVoice = () => {
      voices = [{ name: 'Test', lang: 'en-US', default: true, localService: true, voiceURI: 'test' }];
      window.speechSynthesis.dispatchEvent(new Event('voiceschanged'));
    };
  });
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Copy').waitFor();
  expect(await copilot.action(0, 'Read aloud').count()).toBe(0);
  await site.page.evaluate(() => (window as unknown as { addVoice: () => void }).addVoice());
  await copilot.action(0, 'Read aloud').waitFor();
});

test('swaps tooltips between neighbouring icon buttons without a gap or two at once', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  const buttons = ['Copy', 'Refresh', 'Good response', 'Bad response'];
  await copilot.action(0, 'Copy').hover();
  await site.page.getByRole('tooltip').filter({ hasText: 'Copy' }).waitFor();
  // Every frame from the jump to the next button on: exactly one tooltip, and soon the neighbour's.
  for (const name of buttons.slice(1)) {
    const box = await copilot.action(0, name).boundingBox();
    if (!box) throw new Error(`no ${name} button`);
    const sampling = site.page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const seen: string[] = [];
          const started = performance.now();
          const sample = () => {
            const shown = [...document.querySelectorAll('[role="tooltip"]')].map(
              (element) => element.textContent ?? '',
            );
            seen.push(shown.join('+') || '(none)');
            if (performance.now() - started < 400) requestAnimationFrame(sample);
            else resolve(seen);
          };
          requestAnimationFrame(sample);
        }),
    );
    await site.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const frames = await sampling;
    expect(frames.filter((frame) => frame === '(none)' || frame.includes('+'))).toEqual([]);
    expect(frames.at(-1)).toBe(name);
  }
});

test('keeps the launcher off the table of contents, with the announcement bar shown and scrolled away', async ({
  reader: { site, copilot },
}) => {
  await site.page.setViewportSize({ width: 1280, height: 560 });
  await site.open('/firestore-ttl');
  await site.announcementBar.waitFor();
  for (const scroll of [0, 800]) {
    await site.page.evaluate((top) => window.scrollTo({ top }), scroll);
    const launcher = await copilot.launcher.boundingBox();
    if (!launcher) throw new Error('no launcher');
    const covered = await site.tableOfContents.evaluate((toc, button) => {
      const visible = toc.getBoundingClientRect();
      return [...toc.querySelectorAll('a')]
        .map((link) => ({ text: link.textContent ?? '', box: link.getBoundingClientRect() }))
        .filter(({ box }) => box.bottom > visible.top && box.top < visible.bottom)
        .filter(({ box }) => box.right > button.x && box.bottom > button.y)
        .map(({ text }) => text);
    }, launcher);
    expect(covered, `scrolled to ${scroll}`).toEqual([]);
  }
});

test('keeps the search button clear of the site title on a phone', async ({ reader: { site } }) => {
  await site.page.setViewportSize({ width: 390, height: 844 });
  await site.open('/firestore-ttl');
  const title = await site.page.locator('.navbar__inner .navbar__brand').boundingBox();
  const search = await site.page.locator('.navbar__inner [class*="searchBox"]').first().boundingBox();
  if (!title || !search) throw new Error('no title or search');
  expect(search.x - (title.x + title.width)).toBeGreaterThanOrEqual(8);
});
