import type { Page } from 'playwright-core';

/** The focused element's accessible label or trimmed text, or "BODY" when the focus fell to the page. */
export const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'BODY';
    return element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
  });
