import { expect } from 'vitest';
import { seriousAxeViolations, startBeforeTests, test } from './copilot-page-support';

/** The floating widget: reading answers aloud, the hand-off from search, accessibility and the phone layout. */

startBeforeTests();

test('offers no Read aloud where the browser cannot speak', async ({ reader: { site, copilot } }) => {
  await site.page.addInitScript(() => {
    delete (window as unknown as { speechSynthesis?: unknown }).speechSynthesis;
  });
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Copy').waitFor();
  expect(await copilot.action(0, 'Read aloud').count()).toBe(0);
});

test('reads an answer aloud with the browser speech synthesis', async ({ reader: { site, copilot } }) => {
  // Headless Chromium has no voices: it is given one, and what it was asked to say is watched.
  await site.page.addInitScript(() => {
    const voice = { name: 'Test', lang: 'en-US', default: true, localService: true, voiceURI: 'test' };
    window.speechSynthesis.getVoices = () => [voice as SpeechSynthesisVoice];
    const spoken: string[] = [];
    (window as unknown as { spoken: string[] }).spoken = spoken;
    const speak = window.speechSynthesis.speak.bind(window.speechSynthesis);
    window.speechSynthesis.speak = (utterance) => {
      spoken.push(utterance.text);
      speak(utterance);
    };
  });
  await copilot.askFirstOn(site, '/', 'How do I register a GitLab runner?');
  await copilot.action(0, 'Read aloud').click();
  const spoken = await site.page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
  expect(spoken).toHaveLength(1);
  expect(spoken[0]).toContain('GitLab');
});

test('offers "Ask Dev Copilot" for a query without results, and asks it', async ({ reader: { site, copilot } }) => {
  await site.open('/dev-flow/');
  await site.search('qwxzvbnmplk');
  await site.page.getByTestId('ask-copilot-from-search').click();
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.first().innerText()).toBe('qwxzvbnmplk');
  expect(await copilot.lastAnswer.innerText()).toContain('does not seem to cover');
});

test('makes the same offer on the /search page', async ({ reader: { site, copilot } }) => {
  await site.open('/search?q=qwxzvbnmplk');
  await site.page.getByTestId('ask-copilot-from-search').click();
  await copilot.popover.waitFor();
  await copilot.waitForAnswer(1);
  expect(await copilot.userMessages.first().innerText()).toBe('qwxzvbnmplk');
});

test('has no serious or critical axe-core violations in the open widget, and names every button', async ({
  reader: { site, copilot },
}) => {
  await copilot.askFirstOn(site, '/firestore-ttl', 'How do I create a TTL policy for expireAt in Firestore?');
  const popover = '[data-testid="copilot-popover"]';
  expect(await seriousAxeViolations(site.page, popover)).toEqual([]);
  // The same in the dark theme (it follows the system setting), contrast included.
  await site.page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => site.theme()).toBe('dark');
  // Infima animates link colours: measure again until the switch has finished.
  await expect.poll(() => seriousAxeViolations(site.page, popover), { timeout: 5000 }).toEqual([]);
  const unnamed = await copilot.popover
    .locator('button')
    .evaluateAll(
      (buttons) =>
        buttons.filter((button) => !(button.getAttribute('aria-label') || button.textContent?.trim())).length,
    );
  expect(unnamed).toBe(0);
});

test('shows a tooltip on keyboard focus and turns the chat into a full-screen sheet below 996 px', async ({
  reader: { site, copilot },
}) => {
  await site.page.setViewportSize({ width: 800, height: 700 });
  await site.open('/');
  await copilot.open();
  const box = await copilot.popover.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: 800, height: 700 });
  await site.page.getByRole('button', { name: 'Attach file' }).focus();
  await expect.poll(() => site.page.getByRole('tooltip').innerText()).toBe('Attach file');
  // The sheet covers the launcher, so it closes from its own header.
  // Named apart from the announcement bar's "Close" in a screen reader's list of buttons.
  expect(await copilot.popover.getByRole('button', { name: 'Close', exact: true }).count()).toBe(0);
  await copilot.popover.getByRole('button', { name: 'Close Dev Copilot', exact: true }).click();
  await copilot.popover.waitFor({ state: 'detached' });
  await copilot.launcher.click();
  await copilot.composerInput.waitFor();
});
