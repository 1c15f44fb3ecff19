import { describe, expect } from 'vitest';
import { axeViolations } from './axe';
import { startBeforeTests, test } from './copilot-page-support';

/**
 * axe-core finds nothing, at any impact, on the doc pages (code in both Prism themes, task lists, wide tables, links
 * in text), the search page, the search box's open suggestions (desktop and phone), the assistant page and the open
 * chat, in the light and the dark theme.
 */

startBeforeTests();

const docPages = [
  '/',
  '/firestore-ttl',
  '/Development Resources/shopify-auth-managed-migration/',
  '/cloudflare-tunnel',
  '/guide-using-cloud-tasks',
  '/search?q=ttl',
  '/no-such-page',
];

for (const colorScheme of ['light', 'dark'] as const) {
  describe(`${colorScheme} theme`, () => {
    test('doc pages and the search page have no axe violations', async ({ reader: { site } }) => {
      await site.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      for (const route of docPages) {
        await site.open(route);
        expect(await site.theme()).toBe(colorScheme);
        expect({ route, violations: await axeViolations(site.page) }).toEqual({ route, violations: [] });
      }
    }, 120_000); // seven pages, each opened and scanned: 30 s ran out once under a loaded CI

    test('the search box with its suggestions open has no axe violations, on a desktop and on a phone', async ({
      reader: { site },
    }) => {
      await site.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await site.page.setViewportSize(viewport);
        await site.open('/firestore-ttl');
        await site.search('ttl');
        await site.suggestions.first().waitFor();
        expect({ viewport, violations: await axeViolations(site.page) }).toEqual({ viewport, violations: [] });
      }
    });

    test('the open chat with an answer, and the assistant page, have no axe violations', async ({
      reader: { site, copilot },
    }) => {
      await site.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await copilot.askFirstOn(site, '/firestore-ttl', 'How do I create a TTL policy for expireAt in Firestore?');
      expect(await axeViolations(site.page)).toEqual([]);
      await site.open('/dev-copilot');
      await copilot.waitForAnswer(1);
      expect(await axeViolations(site.page)).toEqual([]);
    });
  });
}

/** WCAG contrast of two computed `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

test('the search box placeholder and its shortcut hint read at 4.5:1 in both themes', async ({ reader: { site } }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    await site.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await site.open('/firestore-ttl');
    const colours = await site.page.evaluate(() => {
      const input = document.querySelector('input.navbar__search-input') as HTMLInputElement;
      const hint = input.parentElement?.querySelector('kbd') as HTMLElement;
      return {
        placeholder: getComputedStyle(input, '::placeholder').color,
        field: getComputedStyle(input).backgroundColor,
        hint: getComputedStyle(hint).color,
        hintBackground: getComputedStyle(hint).backgroundColor,
      };
    });
    expect(contrast(colours.placeholder, colours.field), colorScheme).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.hint, colours.hintBackground), colorScheme).toBeGreaterThanOrEqual(4.5);
  }
});

test('a hovered footer link reads at 4.5:1 on the footer in both themes', async ({ reader: { site } }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    await site.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await site.open('/firestore-ttl');
    const link = site.page.locator('.footer a.footer__link-item').first();
    await link.hover();
    // Docusaurus eases the colour in; what matters is where it settles.
    await site.page.waitForTimeout(400);
    const colours = await link.evaluate((element) => ({
      text: getComputedStyle(element).color,
      footer: getComputedStyle(element.closest('footer') as HTMLElement).backgroundColor,
    }));
    expect(contrast(colours.text, colours.footer), colorScheme).toBeGreaterThanOrEqual(4.5);
  }
});
