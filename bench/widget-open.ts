/**
 * The first open of Dev Copilot, timed inside the page (no browser-driver round trips in the figure): from the
 * launcher's click to the first frame with a composer that takes input (the text field focused, not read-only), and
 * to the first frame with the real chat's composer (its conversation loaded). Also which scripts had to arrive first.
 */
import type { Page } from 'playwright-core';

export type OpenMarks = {
  /** ms from the click to a focused, editable composer (the light one of the first moments, or the real one). */
  usable: number;
  /** ms from the click to the real chat's composer, focused and editable. */
  realChat: number;
  /** Paths of the scripts that arrived after the click began and before the composer took input. */
  scriptsBeforeUsable: string[];
};

type Marks = { click?: number; usable?: number; real?: number; before?: string[]; needed?: string[] };

/**
 * Installed before the page's own scripts: watches the first click on the launcher. Plain JavaScript in a string:
 * the bench's TypeScript runner adds helpers to functions that do not exist in the page.
 */
const watchFirstOpen = `(() => {
  const marks = {};
  window.__copilotOpen = marks;
  const scriptsSoFar = () =>
    performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (marks.click !== undefined || !target || !target.closest('[data-testid="copilot-launcher"]')) return;
    marks.click = performance.now();
    // Scripts still on the way at the click (the pointer's approach starts the chat's fetch) have no entry yet.
    marks.before = scriptsSoFar().map((entry) => entry.name);
    const check = () => {
      const field = document.activeElement;
      const takesInput = field instanceof HTMLTextAreaElement &&
        field.getAttribute('aria-label') === 'Message Dev Copilot' && !field.readOnly && !field.disabled;
      if (takesInput && marks.usable === undefined) {
        marks.usable = performance.now();
        marks.needed = scriptsSoFar()
          .filter((entry) => !marks.before.includes(entry.name) && entry.responseEnd <= marks.usable)
          .map((entry) => new URL(entry.name).pathname);
      }
      if (takesInput && field.closest('[data-testid="copilot-composer"]')) marks.real = performance.now();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, { capture: true });
})();`;

/** Prepares a page (before it loads) for `clickAndTime`. */
export async function watchOpen(page: Page) {
  await page.addInitScript({ content: watchFirstOpen });
}

/** Clicks the launcher and waits for the real chat; the marks come from the page itself. */
export async function clickAndTime(page: Page): Promise<OpenMarks> {
  await page.getByTestId('copilot-launcher').click();
  const marks = (await page
    .waitForFunction(() => {
      const watched = (window as unknown as { __copilotOpen: Marks }).__copilotOpen;
      return watched.real !== undefined && watched;
    })
    .then((handle) => handle.jsonValue())
    .catch(async (error) => {
      const state = await page.evaluate(() => ({
        marks: (window as unknown as { __copilotOpen: Marks }).__copilotOpen,
        focused: document.activeElement?.outerHTML.slice(0, 160),
        shell: document.querySelector('[data-shell]') !== null,
        realComposer: document.querySelector('[data-testid="copilot-composer"]') !== null,
      }));
      throw new Error(
        `The chat never took input: ${JSON.stringify({ ...state, marks: { ...state.marks, before: undefined } })}`,
        { cause: error },
      );
    })) as Marks;
  const click = marks.click ?? Number.NaN;
  return {
    usable: (marks.usable ?? Number.NaN) - click,
    realChat: (marks.real ?? Number.NaN) - click,
    scriptsBeforeUsable: marks.needed ?? [],
  };
}
