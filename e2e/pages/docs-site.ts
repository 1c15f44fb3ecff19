import type { Page } from 'playwright-core';

/** The docs site as a reader sees it: navbar search, theme toggle, sidebar, announcement bar, table of contents. */
export class DocsSite {
  /** Everything the browser refused under our Content-Security-Policy while this page object was in use. */
  readonly policyViolations: string[] = [];

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) {
        this.policyViolations.push(message.text());
      }
    });
  }

  /** Opens a route and waits until React has hydrated it (keyboard shortcuts work only after that). */
  async open(route: string) {
    const response = await this.page.goto(this.baseUrl + encodeURI(route));
    await this.page.waitForSelector('html[data-has-hydrated="true"]');
    return response;
  }

  get searchInput() {
    return this.page.locator('input.navbar__search-input');
  }

  /** The search's hits in the suggestions (without the "Ask Dev Copilot" option after them). */
  get suggestions() {
    return this.page.locator('[role="listbox"] [role="option"]:not([data-ask-copilot])');
  }

  /** "Ask Dev Copilot" with the query: the last option of the suggestions. */
  get askCopilotOption() {
    return this.page.locator('[role="listbox"] [role="option"][data-ask-copilot]');
  }

  get searchDropdown() {
    return this.page.getByTestId('search-dropdown');
  }

  async search(query: string) {
    await this.page.keyboard.press('Control+k');
    await this.page.keyboard.type(query);
  }

  get themeToggle() {
    return this.page.locator('.navbar button[title*="mode"]').first();
  }

  theme() {
    return this.page.evaluate(() => document.documentElement.dataset.theme);
  }

  get announcementBar() {
    return this.page.locator('.theme-announcement-bar');
  }

  get mobileMenuButton() {
    return this.page.locator('button.navbar__toggle');
  }

  get mobileSidebar() {
    return this.page.locator('.navbar-sidebar');
  }

  get tableOfContents() {
    return this.page.locator('.theme-doc-toc-desktop');
  }
}
